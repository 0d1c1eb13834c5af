import io.reactivex.*;
import io.reactivex.subscribers.TestSubscriber;
public class BoundedBufferBehindConsumers {
    static void show(String name, Flowable<?> f) {
        TestSubscriber<?> ts = f.test();
        ts.awaitDone(5, java.util.concurrent.TimeUnit.SECONDS);
        System.out.println(name + ": values=" + ts.valueCount() + " errors=" + ts.errors() + " complete=" + ts.completions());
    }
    public static void main(String[] a) {
        Flowable<Integer> b = Flowable.range(1, 100).onBackpressureBuffer(16);
        show("zip", Flowable.zip(Flowable.range(1, 100).onBackpressureBuffer(16), Flowable.range(1, 100), (x, y) -> x + y));
        show("merge", Flowable.merge(Flowable.range(1, 100).onBackpressureBuffer(16), Flowable.range(1, 100)));
        show("concatMap", Flowable.just(1).concatMap(x -> Flowable.range(1, 100).onBackpressureBuffer(16)));
        show("concatEager", Flowable.concatEager(java.util.Arrays.asList(Flowable.range(1, 100).onBackpressureBuffer(16))));
        show("sequenceEqual", Flowable.sequenceEqual(Flowable.range(1, 100).onBackpressureBuffer(16), Flowable.range(1, 100)).toFlowable());
        show("observeOn", Flowable.range(1, 100).onBackpressureBuffer(16).observeOn(io.reactivex.schedulers.Schedulers.single()));
        show("rebatch zip", Flowable.zip(Flowable.range(1, 100).rebatchRequests(4), Flowable.range(1, 100), (x, y) -> x + y));
        show("map zip", Flowable.zip(Flowable.range(1, 100).onBackpressureBuffer(16).map(x -> x), Flowable.range(1, 100), (x, y) -> x + y));
    }
}
