import io.reactivex.*;
import io.reactivex.subscribers.TestSubscriber;
public class MergeOfBoundedBuffer {
    static Flowable<Integer> B() { return Flowable.range(1, 100).onBackpressureBuffer(16); }
    static void show(String n, Flowable<Integer> f) { TestSubscriber<Integer> ts = f.test(); System.out.println(n + " " + ts.valueCount() + " " + ts.errors()); }
    public static void main(String[] a) {
        show("flat_map just", Flowable.just(1).flatMap(x -> B()));
        show("merge_array", Flowable.mergeArray(B(), Flowable.range(1, 100)));
        show("merge list", Flowable.merge(java.util.Arrays.asList(B(), Flowable.range(1, 100))));
        show("hidden flat_map", Flowable.just(1).hide().flatMap(x -> B()));
        show("merge_with", B().mergeWith(Flowable.range(1, 100)));
    }
}
