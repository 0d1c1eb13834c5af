import io.reactivex.*;
import java.util.*;
import org.reactivestreams.*;
public class SkipStartWithRetry {
    public static void main(String[] a) {
        List<List<Long>> hops = new ArrayList<>();
        Flowable<Integer> src = Flowable.defer(() -> {
            List<Long> reqs = new ArrayList<>(); hops.add(reqs);
            return Flowable.just(0).concatWith(Flowable.<Integer>error(new RuntimeException("source"))).doOnRequest(reqs::add);
        });
        List<Object> got = new ArrayList<>();
        Subscription[] sub = new Subscription[1];
        src.skip(5).startWith(-1).retry(2).subscribe(new Subscriber<Integer>() {
            public void onSubscribe(Subscription s) { sub[0] = s; }
            public void onNext(Integer t) { got.add(t); }
            public void onError(Throwable t) { got.add("error"); }
            public void onComplete() { got.add("complete"); }
        });
        sub[0].request(5); sub[0].request(Long.MAX_VALUE); sub[0].request(300); sub[0].request(Long.MAX_VALUE);
        System.out.println("items=" + got + " source requests per subscription=" + hops);
    }
}
