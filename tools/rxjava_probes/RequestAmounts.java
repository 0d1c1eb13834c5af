import io.reactivex.*;
import io.reactivex.subscribers.TestSubscriber;
import io.reactivex.processors.PublishProcessor;
import java.util.*;
import org.reactivestreams.*;

public class RequestAmounts {
    static <T> Flowable<T> rec(Flowable<T> f, List<Long> reqs, List<String> ev) {
        return f.doOnRequest(reqs::add).doOnCancel(() -> ev.add("cancel"));
    }
    public static void main(String[] a) {
        // 1. flatMapIterable: downstream cancels on the last element of an iterable
        for (String op : new String[]{"flatMapIterable", "concatMapIterable"}) {
            List<Long> reqs = new ArrayList<>(); List<String> ev = new ArrayList<>();
            Flowable<Integer> up = rec(Flowable.range(1, 10), reqs, ev);
            Flowable<Integer> f = op.equals("flatMapIterable")
                ? up.flatMapIterable(x -> Arrays.asList(x, x * 10))
                : up.concatMapIterable(x -> Arrays.asList(x, x * 10));
            List<Integer> got = new ArrayList<>();
            f.subscribe(new Subscriber<Integer>() {
                Subscription s;
                public void onSubscribe(Subscription s) { this.s = s; s.request(3); }
                public void onNext(Integer t) { got.add(t); if (t == 20) s.cancel(); }
                public void onError(Throwable t) { got.add(-1); }
                public void onComplete() { got.add(-2); }
            });
            System.out.println(op + " cancel-on-last: items=" + got + " upstream requests=" + reqs + " " + ev);
        }
        // 1b. with the downstream requesting 1 at a time and cancelling on the last of 2nd iterable
        for (String op : new String[]{"flatMapIterable", "concatMapIterable"}) {
            List<Long> reqs = new ArrayList<>(); List<String> ev = new ArrayList<>();
            Flowable<Integer> up = rec(Flowable.range(1, 10), reqs, ev);
            Flowable<Integer> f = op.equals("flatMapIterable")
                ? up.flatMapIterable(x -> Arrays.asList(x, x * 10), 2)
                : up.concatMapIterable(x -> Arrays.asList(x, x * 10), 2);
            List<Integer> got = new ArrayList<>();
            f.subscribe(new Subscriber<Integer>() {
                Subscription s;
                public void onSubscribe(Subscription s) { this.s = s; s.request(1); }
                public void onNext(Integer t) { got.add(t); if (t == 30) s.cancel(); else s.request(1); }
                public void onError(Throwable t) { got.add(-1); }
                public void onComplete() { got.add(-2); }
            });
            System.out.println(op + "(prefetch 2) one-by-one cancel-on-last: items=" + got + " upstream requests=" + reqs + " " + ev);
        }
        // 2. switchMap before its first inner
        {
            List<Long> reqs = new ArrayList<>(); List<String> ev = new ArrayList<>();
            List<Long> inner = new ArrayList<>();
            PublishProcessor<Integer> pp = PublishProcessor.create();
            Flowable<Integer> f = rec(pp, reqs, ev).switchMap(x -> Flowable.range(x, 5).doOnRequest(inner::add));
            TestSubscriber<Integer> ts = f.test(0);
            System.out.println("switchMap after subscribe(0): upstream=" + reqs + " inner=" + inner);
            ts.request(3);
            System.out.println("switchMap after request(3), before first inner: upstream=" + reqs + " inner=" + inner);
            pp.onNext(1);
            System.out.println("switchMap after first item: upstream=" + reqs + " inner=" + inner + " values=" + ts.values());
            ts.request(2);
            pp.onNext(10);
            System.out.println("switchMap after request(2), 2nd item: upstream=" + reqs + " inner=" + inner + " values=" + ts.values());
        }
        // 3. replay when a subscriber goes unbounded
        for (int mode = 0; mode < 3; mode++) {
            List<Long> reqs = new ArrayList<>(); List<String> ev = new ArrayList<>();
            Flowable<Integer> src = rec(Flowable.range(1, 1000), reqs, ev);
            io.reactivex.flowables.ConnectableFlowable<Integer> c = mode == 0 ? src.replay() : mode == 1 ? src.replay(3) : src.publish();
            TestSubscriber<Integer> t1 = c.test(2);
            TestSubscriber<Integer> t2 = c.test(1);
            c.connect();
            String r0 = reqs.toString();
            t2.request(Long.MAX_VALUE);
            String r1 = reqs.toString();
            t1.request(Long.MAX_VALUE);
            System.out.println((mode == 0 ? "replay()" : mode == 1 ? "replay(3)" : "publish()") + ": after connect " + r0 + " after t2 unbounded " + r1 + " after t1 unbounded " + reqs.subList(0, Math.min(reqs.size(), 12)) + " n=" + reqs.size() + " t1=" + t1.valueCount() + " t2=" + t2.valueCount());
        }
    }
}
