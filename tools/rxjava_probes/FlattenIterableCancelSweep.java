import io.reactivex.*;
import java.util.*;
import org.reactivestreams.*;
public class FlattenIterableCancelSweep {
    public static void main(String[] a) {
        for (String op : new String[]{"flat_map_iterable", "concat_map_iterable"})
        for (int prefetch : new int[]{1, 2, 3, 4, 128})
        for (int len : new int[]{1, 2, 3})
        for (int k = 1; k <= 6; k++)
        for (int batch : new int[]{1, 2, 5}) {
            List<Long> reqs = new ArrayList<>(); List<String> ev = new ArrayList<>();
            Flowable<Integer> up = Flowable.range(1, 10).doOnRequest(reqs::add).doOnCancel(() -> ev.add("cancel"));
            final int L = len;
            io.reactivex.functions.Function<Integer, Iterable<Integer>> m = x -> { List<Integer> l = new ArrayList<>(); for (int i = 0; i < L; i++) l.add(x * 100 + i); return l; };
            Flowable<Integer> f = op.startsWith("flat") ? up.flatMapIterable(m, prefetch) : up.concatMapIterable(m, prefetch);
            final int stop = k * 100 + len - 1; final int B = batch;
            List<Integer> got = new ArrayList<>();
            f.subscribe(new Subscriber<Integer>() {
                Subscription s; int left;
                public void onSubscribe(Subscription s) { this.s = s; left = B; s.request(B); }
                public void onNext(Integer t) { got.add(t); if (t == stop) { s.cancel(); return; } if (--left == 0) { left = B; s.request(B); } }
                public void onError(Throwable t) { got.add(-1); }
                public void onComplete() { got.add(-2); }
            });
            System.out.println(op + " p=" + prefetch + " len=" + len + " k=" + k + " b=" + batch + " items=" + got.size() + " req=" + reqs + " " + ev);
        }
    }
}
