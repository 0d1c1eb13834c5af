import io.reactivex.*;
import io.reactivex.subscribers.TestSubscriber;
public class MapUnderZip {
    public static void main(String[] a) {
        TestSubscriber<String> ts = Flowable.zip(Flowable.range(0, 5).map(x -> 1 / (2 - x)), Flowable.range(0, 5), (x, y) -> x + "," + y).test();
        System.out.println("values=" + ts.values() + " errors=" + ts.errors());
        TestSubscriber<Integer> ts2 = Flowable.range(0, 5).map(x -> 1 / (2 - x)).concatMap(x -> Flowable.just(x, x)).test();
        System.out.println("concatMap values=" + ts2.values() + " errors=" + ts2.errors());
    }
}
