/*
 * cardtui's bench: matches played in MiniTruco's own house (chesterbr/minitruco-android, BSD-3-Clause). Its
 * referee (PartidaLocal, in its "manilha velha" mode) deals, asks and scores; its bots (JogadorBot with its two
 * strategies) sit at two seats as MiniTruco seats them; at the other two sits CardtuiSeat, a Jogador of ours that
 * tells what it is told, one line a decision, to the process that started this one (bench/outside_house.py), and
 * does what that process answers. Nothing of MiniTruco is here: this file is compiled against a build of its core
 * (bench/outside_truco.py says how), beside MiniTrucoDriver.java, whose seeds it shares.
 *
 * Arguments: MODE STRATEGY DEALS SEED PARALLEL [ANSWERS]
 *   MODE      play: cardtui's seats (positions 1 and 3, then 2 and 4 on the same deals) against STRATEGY's bots;
 *             proof: no seat of ours, Gasparotto's bots against Sellani's, then swapped, every decision logged
 *   STRATEGY  G (EstrategiaGasparotto) or S (EstrategiaSellani); ignored in proof
 *   DEALS     how many deals: each is played twice, the two teams swapping their places (duplicate deals)
 *   SEED      the deals' seed: deal d's deck is MiniTruco's own Baralho with its Random seeded by mix(SEED, d)
 *   PARALLEL  matches in play at once (MiniTruco's bots sleep between moves, as they do for a person)
 *   ANSWERS   team (default): a refusal by our first seat asked hands the call to its partner, as MiniTruco's
 *             referee has it; once: our partner repeats our first seat's refusal (the first answer is final, as at
 *             cardtui's table)
 *
 * Lines out (stdout), one JSON object after a tag:
 *   D <id> {...}   a decision of one of our seats: everything it was told (see CardtuiSeat.told); the answer comes
 *                  back on stdin as "<id> <word>", the word one of: play <card>, down <card>, call, accept, run
 *   K {...}        a decision of one of MiniTruco's bots (proof, and play for the record): its situation and answer
 *   H {...}        a hand dealt: the cards of positions 1 to 4 and who opens it; and each hand's end, with the scores
 *                  and its calls and answers
 *   M {...}        a match over: who sat where, the scores, the hands played, or why it did not finish
 *   END            every match played
 */

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.LogManager;

import me.chester.minitruco.core.Baralho;
import me.chester.minitruco.core.Carta;
import me.chester.minitruco.core.Estrategia;
import me.chester.minitruco.core.EstrategiaGasparotto;
import me.chester.minitruco.core.EstrategiaSellani;
import me.chester.minitruco.core.Jogador;
import me.chester.minitruco.core.JogadorBot;
import me.chester.minitruco.core.Partida;
import me.chester.minitruco.core.PartidaLocal;
import me.chester.minitruco.core.SituacaoJogo;

public final class MiniTrucoHouse {

    private MiniTrucoHouse() {
    }

    /** A match that has not ended after this long is abandoned and counted for nobody. */
    static final long MATCH_LIMIT_MS = 30 * 60 * 1000L;

    static PrintStream out;
    static final AtomicLong ids = new AtomicLong();
    static final Map<Long, CompletableFuture<String>> waiting = new ConcurrentHashMap<>();
    static boolean answersOnce = false;

    static synchronized void emit(String tag, String json) {
        out.println(tag + " " + json);
        out.flush();
    }

    /** Asks the process that started this one, and waits for its answer. */
    static String ask(String json) throws InterruptedException {
        long id = ids.incrementAndGet();
        CompletableFuture<String> f = new CompletableFuture<>();
        waiting.put(id, f);
        emit("D " + id, json);
        try {
            return f.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    static String q(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    static String cardList(List<String> cards) {
        StringBuilder b = new StringBuilder("[");
        for (String c : cards) {
            b.append(b.length() == 1 ? "" : ",").append(q(c));
        }
        return b.append(']').toString();
    }

    static String cardList(Carta[] cards) {
        List<String> l = new ArrayList<>();
        if (cards != null) {
            for (Carta c : cards) {
                l.add(c.toString());
            }
        }
        return cardList(l);
    }

    static long mix(long seed, long d) {
        long z = seed + 0x9E3779B97F4A7C15L * (d + 1);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    // -- MiniTruco's bots, their doubts seeded by the situation (as MiniTrucoDriver seeds them) -----------------

    /** Locks a strategy class's static Random while it is reseeded and drawn from (matches play at once). */
    static final Object G_LOCK = new Object();
    static final Object S_LOCK = new Object();

    /** A strategy of MiniTruco's as its JogadorBot asks it, each decision seeded and told to the log. */
    static final class Seeded implements Estrategia {
        final Estrategia inner;
        final String name;
        final Random rand;
        final Object lock;
        final long salt;
        final Match match;
        int position;

        Seeded(boolean g, long salt, Match match) {
            this.inner = g ? new EstrategiaGasparotto() : new EstrategiaSellani();
            this.name = g ? "G" : "S";
            this.rand = MiniTrucoDriver.randomOfClass(g ? EstrategiaGasparotto.class : EstrategiaSellani.class);
            this.lock = g ? G_LOCK : S_LOCK;
            this.salt = salt;
            this.match = match;
        }

        private String log(String op, SituacaoJogo s, Carta[] partner, String answer, String canon) {
            emit("K", "{\"match\":" + match.id + ",\"strategy\":" + q(name) + ",\"op\":" + q(op) + ",\"pos\":"
                    + s.posJogador + ",\"hand\":" + match.hands + ",\"situation\":" + q(canon) + ",\"answer\":"
                    + q(answer) + "}");
            return answer;
        }

        @Override
        public int joga(SituacaoJogo s) {
            String canon = MiniTrucoDriver.canon("J", s, null);
            int r;
            synchronized (lock) {
                rand.setSeed(MiniTrucoDriver.seed(salt, canon));
                r = inner.joga(s);
            }
            log("J", s, null, Integer.toString(r), canon);
            return r;
        }

        @Override
        public boolean aceitaTruco(SituacaoJogo s) {
            String canon = MiniTrucoDriver.canon("A", s, null);
            boolean r;
            synchronized (lock) {
                rand.setSeed(MiniTrucoDriver.seed(salt, canon));
                r = inner.aceitaTruco(s);
            }
            log("A", s, null, r ? "1" : "0", canon);
            return r;
        }

        @Override
        public boolean aceitaMaoDeX(Carta[] cartasParceiro, SituacaoJogo s) {
            String canon = MiniTrucoDriver.canon("X", s, cartasParceiro);
            boolean r;
            synchronized (lock) {
                rand.setSeed(MiniTrucoDriver.seed(salt, canon));
                r = inner.aceitaMaoDeX(cartasParceiro, s);
            }
            log("X", s, cartasParceiro, r ? "1" : "0", canon);
            return r;
        }
    }

    // -- our seat -------------------------------------------------------------------------------------------

    /**
     * A seat of cardtui's: everything MiniTruco's referee tells it is kept (its cards, each card played, each
     * trick's result, each call and answer, the scores), and at each of its decisions all of it goes out in one
     * line. Notifications come on the referee's threads and are only queued; the seat's own thread acts on them in
     * order, as a JogadorBot's does, so the referee is never called back from inside a notification.
     */
    static final class CardtuiSeat extends Jogador implements Runnable {
        final Match match;
        final BlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();
        final Thread thread;
        volatile boolean done = false;

        // what this seat was told, this hand (touched only on its own thread)
        int opener;
        int hand;
        int[] scores = {0, 0};
        final List<Carta> cards = new ArrayList<>();
        final List<String> plays = new ArrayList<>(); // "trick pos card" in the order played; card "xx" face down
        final List<String> tricks = new ArrayList<>(); // "result winnerPos"
        final List<String> calls = new ArrayList<>(); // "pos value" asked, "+pos value" accepted, "-pos" refused
        final List<String> onze = new ArrayList<>(); // "pos 1|0"
        Carta[] partnerCards;
        int stake = 1;
        int next;
        int pendingCaller = 0;
        boolean partnerRefused = false;
        boolean waitingForAnswer = false;
        boolean answeredThisCall = false;
        boolean onzeAsked = false;
        boolean lastDown = false;

        CardtuiSeat(Match match) {
            this.match = match;
            setNome("cardtui");
            thread = new Thread(this, "cardtui-seat");
            thread.setDaemon(true);
            thread.start();
        }

        int partner() {
            return getParceiro();
        }

        boolean ours(int pos) {
            return pos % 2 == getPosicao() % 2;
        }

        @Override
        public void run() {
            try {
                while (!done) {
                    Runnable r = queue.poll(200, TimeUnit.MILLISECONDS);
                    if (r != null) {
                        r.run();
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                match.fail(e);
            }
        }

        void later(Runnable r) {
            queue.add(r);
        }

        String told(String kind, boolean podeFechada) {
            StringBuilder b = new StringBuilder("{");
            b.append("\"match\":").append(match.id).append(",\"kind\":").append(q(kind));
            b.append(",\"you\":").append(getPosicao()).append(",\"hand\":").append(hand);
            b.append(",\"opener\":").append(opener);
            b.append(",\"scores\":[").append(scores[0]).append(',').append(scores[1]).append(']');
            List<String> held = new ArrayList<>();
            for (Carta c : cards) {
                held.add(c.toString());
            }
            b.append(",\"cards\":").append(cardList(held));
            b.append(",\"plays\":").append(cardList(plays));
            b.append(",\"tricks\":").append(cardList(tricks));
            b.append(",\"calls\":").append(cardList(calls));
            b.append(",\"onze\":").append(cardList(onze));
            b.append(",\"partner_cards\":").append(cardList(partnerCards));
            b.append(",\"stake\":").append(stake).append(",\"next\":").append(next);
            b.append(",\"pending\":").append(pendingCaller);
            b.append(",\"partner_refused\":").append(partnerRefused);
            b.append(",\"partner_to_answer\":").append(kind.equals("answer") && !partnerRefused && !answersOnce);
            b.append(",\"down\":").append(podeFechada);
            return b.append('}').toString();
        }

        Carta holding(String card) {
            for (Carta c : cards) {
                if (c.toString().equals(card)) {
                    return c;
                }
            }
            throw new IllegalStateException("seat " + getPosicao() + " was told to play " + card + ", not held");
        }

        /** Our turn: a card, face down where allowed, or a call (then, accepted, our turn again). */
        void turn(boolean podeFechada) {
            lastDown = podeFechada;
            String a = askOrFail(told("turn", podeFechada));
            if (a.equals("call") && next != 0) {
                waitingForAnswer = true;
                partida.aumentaAposta(this);
                return;
            }
            String[] w = a.split(" ");
            if (w.length != 2 || !(w[0].equals("play") || w[0].equals("down"))) {
                throw new IllegalStateException("seat " + getPosicao() + ": no such move at its turn: " + a);
            }
            Carta c = holding(w[1]);
            c.setFechada(w[0].equals("down") && podeFechada);
            cards.remove(c);
            partida.jogaCarta(this, c);
        }

        void answer() {
            answeredThisCall = true;
            String a = askOrFail(told("answer", false));
            boolean yes = a.equals("accept");
            if (!yes && !a.equals("run")) {
                throw new IllegalStateException("seat " + getPosicao() + ": no such answer: " + a);
            }
            partida.respondeAumento(this, yes);
        }

        void decideOnze() {
            onzeAsked = true;
            String a = askOrFail(told("onze", false));
            partida.decideMaoDeX(this, a.equals("accept"));
        }

        String askOrFail(String json) {
            try {
                return ask(json);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        /** The seat of our team asked first: the next after the caller in play order (the mão's side at 11). */
        boolean firstToAnswer(int caller) {
            return getPosicao() == caller % 4 + 1;
        }

        boolean firstAtOnze() {
            return getPosicao() == opener || getPosicao() == opener % 4 + 1;
        }

        // -- what the referee tells (queued, acted on in order) --------------------------------------------------

        @Override
        public void inicioPartida(int placarEquipe1, int placarEquipe2) {
        }

        @Override
        public void inicioMao(Jogador jogadorQueAbre) {
            Carta[] dealt = getCartas().clone();
            boolean permits = partida.isPlacarPermiteAumento();
            int who = jogadorQueAbre.getPosicao();
            if (getPosicao() == 1) {
                match.dealt(jogadorQueAbre);
            }
            later(() -> {
                hand++;
                opener = who;
                cards.clear();
                for (Carta c : dealt) {
                    cards.add(c);
                }
                plays.clear();
                tricks.clear();
                calls.clear();
                onze.clear();
                partnerCards = null;
                stake = 1;
                next = permits ? 3 : 0;
                pendingCaller = 0;
                partnerRefused = false;
                waitingForAnswer = false;
                onzeAsked = false;
            });
        }

        @Override
        public void informaMaoDeX(Carta[] cartasParceiro) {
            Carta[] theirs = cartasParceiro.clone();
            later(() -> {
                partnerCards = theirs;
                if (firstAtOnze()) {
                    decideOnze();
                }
            });
        }

        @Override
        public void decidiuMaoDeX(Jogador j, boolean aceita, int rndFrase) {
            int pos = j.getPosicao();
            later(() -> {
                onze.add(pos + (aceita ? " 1" : " 0"));
                if (aceita) {
                    stake = 3;
                } else if (pos == partner() && !onzeAsked && partnerCards != null) {
                    decideOnze();
                }
            });
        }

        @Override
        public void vez(Jogador j, boolean podeFechada) {
            if (j != this) {
                return;
            }
            later(() -> turn(podeFechada));
        }

        @Override
        public void cartaJogada(Jogador j, Carta c) {
            int pos = j.getPosicao();
            // A card played face down is known to its player only: nothing of its face is read here.
            String card = c.isFechada() ? (j == this ? "xx:" + c : "xx") : c.toString();
            later(() -> plays.add((tricks.size() + 1) + " " + pos + " " + card));
        }

        @Override
        public void rodadaFechada(int numRodada, int resultado, Jogador jogadorQueTorna) {
            int winner = jogadorQueTorna == null ? 0 : jogadorQueTorna.getPosicao();
            later(() -> tricks.add(resultado + " " + winner));
        }

        @Override
        public void pediuAumentoAposta(Jogador j, int valor, int rndFrase) {
            int pos = j.getPosicao();
            if (getPosicao() == 1) {
                match.calls.add(pos + " " + valor);
            }
            later(() -> {
                calls.add(pos + " " + valor);
                pendingCaller = pos;
                partnerRefused = false;
                answeredThisCall = false;
                if (!ours(pos) && firstToAnswer(pos)) {
                    answer();
                }
            });
        }

        @Override
        public void aceitouAumentoAposta(Jogador j, int valor, int rndFrase) {
            int pos = j.getPosicao();
            if (getPosicao() == 1) {
                match.calls.add("+" + pos + " " + valor);
            }
            later(() -> {
                calls.add("+" + pos + " " + valor);
                stake = valor;
                pendingCaller = 0;
                next = ours(pos) ? (valor < 12 ? valor + 3 : 0) : 0;
                if (waitingForAnswer) {
                    waitingForAnswer = false;
                    turn(lastDown);
                }
            });
        }

        @Override
        public void recusouAumentoAposta(Jogador j, int rndFrase) {
            int pos = j.getPosicao();
            if (getPosicao() == 1) {
                match.calls.add("-" + pos);
            }
            later(() -> {
                calls.add("-" + pos);
                if (pos == partner() && pendingCaller != 0 && !answeredThisCall) {
                    partnerRefused = true;
                    if (answersOnce) {
                        answeredThisCall = true;
                        partida.respondeAumento(this, false);
                    } else {
                        answer();
                    }
                }
            });
        }

        @Override
        public void maoFechada(int[] pontosEquipe) {
            if (getPosicao() == 1) {
                match.ended(pontosEquipe);
            }
            int a = pontosEquipe[0];
            int b = pontosEquipe[1];
            later(() -> {
                scores = new int[] {a, b};
                waitingForAnswer = false;
                pendingCaller = 0;
            });
        }

        @Override
        public void jogoFechado(int numEquipeVencedora, int rndFrase) {
            later(() -> done = true);
        }

        @Override
        public void jogoAbortado(int posicao, int rndFrase) {
            done = true;
        }
    }

    /** One match in MiniTruco's PartidaLocal: who sits where, its deals' seed, and what it logs. */
    static final class Match {
        final long id;
        final long dealSeed;
        final int deal;
        final int side;
        final boolean proof;
        final char strategy;
        final PartidaLocal partida = new PartidaLocal(false, false, "V");
        final Jogador[] seats = new Jogador[4];
        volatile int hands = 0;
        volatile String failure = null;
        /** The hand's calls and answers as position 1 was told them: "pos value", "+pos value", "-pos". */
        final List<String> calls = java.util.Collections.synchronizedList(new ArrayList<>());

        Match(long id, int deal, int side, long dealSeed, boolean proof, char strategy) {
            this.id = id;
            this.deal = deal;
            this.side = side;
            this.dealSeed = dealSeed;
            this.proof = proof;
            this.strategy = strategy;
        }

        /** A hand dealt (told from position 1, the last told, once every seat holds its cards). */
        void dealt(Jogador opener) {
            hands++;
            calls.clear();
            StringBuilder b = new StringBuilder("[");
            for (int p = 0; p < 4; p++) {
                b.append(p == 0 ? "" : ",").append(cardList(seats[p].getCartas()));
            }
            emit("H", "{\"match\":" + id + ",\"hand\":" + hands + ",\"opener\":" + opener.getPosicao()
                    + ",\"salt\":" + dealSeed + ",\"results\":" + results() + ",\"cards\":" + b + "]}");
        }

        void ended(int[] score) {
            emit("H", "{\"match\":" + id + ",\"hand\":" + hands + ",\"scores\":[" + score[0] + "," + score[1]
                    + "],\"results\":" + results() + ",\"calls\":" + cardList(new ArrayList<>(calls)) + "}");
        }

        /** The referee's trick results as they stand (it keeps them from one hand to the next). */
        String results() {
            try {
                Field f = PartidaLocal.class.getDeclaredField("resultadoRodada");
                f.setAccessible(true);
                int[] r = (int[]) f.get(partida);
                return "[" + r[0] + "," + r[1] + "," + r[2] + "]";
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }

        void fail(Throwable e) {
            failure = e.toString();
            partida.abandona(1);
        }

        /** Who sits at position p (1 to 4): "cardtui", "G" or "S". */
        String who(int p) {
            boolean first = p % 2 == 1;
            if (proof) {
                boolean g = first == (side == 0);
                return g ? "G" : "S";
            }
            boolean ours = first == (side == 0);
            return ours ? "cardtui" : String.valueOf(strategy);
        }

        void play() throws Exception {
            Field b = PartidaLocal.class.getDeclaredField("baralho");
            b.setAccessible(true);
            Field r = Baralho.class.getDeclaredField("random");
            r.setAccessible(true);
            ((Random) r.get(b.get(partida))).setSeed(dealSeed);
            for (int p = 1; p <= 4; p++) {
                String w = who(p);
                Jogador j;
                if (w.equals("cardtui")) {
                    j = new CardtuiSeat(this);
                } else {
                    JogadorBot bot = new LoggedBot(new Seeded(w.equals("G"), dealSeed, this), this);
                    bot.setFingeQuePensa(false);
                    j = bot;
                }
                seats[p - 1] = j;
                partida.adiciona(j);
            }
            Thread t = new Thread(partida, "partida-" + id);
            t.setDaemon(true);
            long start = System.currentTimeMillis();
            t.start();
            t.join(MATCH_LIMIT_MS);
            if (t.isAlive()) {
                failure = "did not end within " + MATCH_LIMIT_MS / 1000 + " s";
                partida.abandona(1);
                t.join(5000);
            }
            for (Jogador j : seats) {
                if (j instanceof CardtuiSeat) {
                    ((CardtuiSeat) j).done = true;
                }
            }
            int[] score = scores(partida);
            StringBuilder seated = new StringBuilder("[");
            for (int p = 1; p <= 4; p++) {
                seated.append(p == 1 ? "" : ",").append(q(who(p)));
            }
            seated.append(']');
            emit("M", "{\"match\":" + id + ",\"deal\":" + deal + ",\"side\":" + side + ",\"seats\":" + seated
                    + ",\"scores\":[" + score[0] + "," + score[1] + "],\"hands\":" + hands + ",\"seconds\":"
                    + (System.currentTimeMillis() - start) / 1000.0 + ",\"failure\":"
                    + (failure == null ? "null" : q(failure)) + "}");
        }
    }

    static int[] scores(PartidaLocal p) throws ReflectiveOperationException {
        Field f = Partida.class.getDeclaredField("pontosEquipe");
        f.setAccessible(true);
        return ((int[]) f.get(p)).clone();
    }

    /** MiniTruco's own bot as it is, which also tells the log each hand's deal and end from position 1. */
    static final class LoggedBot extends JogadorBot {
        final Match match;

        LoggedBot(Estrategia e, Match match) {
            super(e, null);
            this.match = match;
        }

        @Override
        public void inicioMao(Jogador jogadorQueAbre) {
            super.inicioMao(jogadorQueAbre);
            if (getPosicao() == 1) {
                match.dealt(jogadorQueAbre);
            }
        }

        @Override
        public void pediuAumentoAposta(Jogador j, int valor, int rndFrase) {
            super.pediuAumentoAposta(j, valor, rndFrase);
            if (getPosicao() == 1) {
                match.calls.add(j.getPosicao() + " " + valor);
            }
        }

        @Override
        public void aceitouAumentoAposta(Jogador j, int valor, int rndFrase) {
            super.aceitouAumentoAposta(j, valor, rndFrase);
            if (getPosicao() == 1) {
                match.calls.add("+" + j.getPosicao() + " " + valor);
            }
        }

        @Override
        public void recusouAumentoAposta(Jogador j, int rndFrase) {
            super.recusouAumentoAposta(j, rndFrase);
            if (getPosicao() == 1) {
                match.calls.add("-" + j.getPosicao());
            }
        }

        @Override
        public void maoFechada(int[] pontosEquipe) {
            super.maoFechada(pontosEquipe);
            if (getPosicao() == 1) {
                match.ended(pontosEquipe);
            }
        }
    }

    public static void main(String[] args) throws Exception {
        LogManager.getLogManager().reset();
        out = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out)), false,
                StandardCharsets.UTF_8);
        System.setOut(System.err);
        String mode = args[0];
        char strategy = args[1].charAt(0);
        int deals = Integer.parseInt(args[2]);
        long seed = Long.parseLong(args[3]);
        int parallel = Integer.parseInt(args[4]);
        answersOnce = args.length > 5 && args[5].equals("once");
        boolean proof = mode.equals("proof");
        Thread reader = new Thread(() -> {
            try {
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    int sp = line.indexOf(' ');
                    CompletableFuture<String> f = waiting.remove(Long.parseLong(line.substring(0, sp)));
                    if (f != null) {
                        f.complete(line.substring(sp + 1).trim());
                    }
                }
            } catch (java.io.IOException e) {
                // the other side went away: the matches end by their limit
            }
            System.exit(0);
        }, "answers");
        reader.setDaemon(true);
        if (!proof) {
            reader.start();
        }
        ExecutorService pool = Executors.newFixedThreadPool(parallel);
        List<java.util.concurrent.Future<?>> all = new ArrayList<>();
        long id = 0;
        for (int d = 0; d < deals; d++) {
            long dealSeed = mix(seed, d);
            for (int side = 0; side < 2; side++) {
                Match m = new Match(++id, d, side, dealSeed, proof, strategy);
                all.add(pool.submit(() -> {
                    try {
                        m.play();
                    } catch (Exception e) {
                        emit("M", "{\"match\":" + m.id + ",\"deal\":" + m.deal + ",\"side\":" + m.side
                                + ",\"failure\":" + q(e.toString()) + "}");
                    }
                    return null;
                }));
            }
        }
        for (java.util.concurrent.Future<?> f : all) {
            f.get();
        }
        pool.shutdown();
        emit("END", "{}");
        System.exit(0);
    }
}
