/*
 * cardtui's bench: asks MiniTruco's own bot strategies (chesterbr/minitruco-android, BSD-3-Clause) for their
 * decisions, one request a line on stdin, one answer a line on stdout. Nothing of MiniTruco is here: this file
 * is compiled against a build of its core that the bench is pointed at (bench/outside_truco.py says how).
 *
 * A request: OP STRATEGY SALT POS TRICK R1 R2 R3 STAKE NEXT CALLER LEADER SCORE1 SCORE2 DOWN HAND PLAYED [PARTNER]
 *   OP        J (joga: a card's place, +10 face down, or -1 for truco), A (aceitaTruco), X (aceitaMaoDeX)
 *   STRATEGY  G (EstrategiaGasparotto) or S (EstrategiaSellani)
 *   SALT      the strategy's Random is reseeded before each decision from the salt and the situation (seed()),
 *             so a decision is repeatable, and the same in MiniTruco's own house (MiniTrucoHouse.java) as here
 *   the rest  SituacaoJogo's fields, in its order; cards in MiniTruco's notation ("4p", "7c"), joined by
 *             commas; PLAYED is the 12 places of cartasJogadas (trick by trick, positions 1 to 4): "-" none,
 *             "xx" face down; an empty hand is "-"
 * An answer: the integer (J) or 1/0 (A, X), a tab, and the situation as the strategy read it (canon()); a request
 * it cannot read: "error: ..." on one line.
 */

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import me.chester.minitruco.core.Carta;
import me.chester.minitruco.core.Estrategia;
import me.chester.minitruco.core.EstrategiaGasparotto;
import me.chester.minitruco.core.EstrategiaSellani;
import me.chester.minitruco.core.SituacaoJogo;

public final class MiniTrucoDriver {

    private MiniTrucoDriver() {
    }

    /** The static Random a strategy draws its doubts from, to be reseeded before each decision. */
    private static Random randomOf(Class<?> strategy) throws ReflectiveOperationException {
        Field f = strategy.getDeclaredField("rand");
        f.setAccessible(true);
        return (Random) f.get(null);
    }

    /**
     * The situation as text, every field a strategy reads for this decision: what seeds its doubts. Left out are
     * the fields a JogadorBot leaves stale from an earlier decision and the strategies do not read then (who asked
     * for the last raise, when playing; whether a card may go face down, when answering), and, for a mão de 11,
     * all but the two hands the strategies decide it by.
     */
    static String canon(String op, SituacaoJogo s, Carta[] partner) {
        StringBuilder b = new StringBuilder(op);
        if (op.equals("X")) {
            // A mão de 11 is decided on the two hands alone (and the second partner's situation shows the stake
            // of 3 when the first has already accepted: MiniTruco asks both, and the one asked later sees it).
            return b.append(' ').append(s.posJogador).append(' ').append(text(s.cartasJogador)).append(' ')
                    .append(text(partner)).toString();
        }
        b.append(' ').append(s.posJogador).append(' ').append(s.numRodadaAtual);
        for (int r : s.resultadoRodada) {
            b.append(' ').append(r);
        }
        b.append(' ').append(s.valorMao).append(' ').append(s.valorProximaAposta);
        if (op.equals("A")) {
            b.append(' ').append(s.posJogadorPedindoAumento);
        }
        b.append(' ').append(s.posJogadorQueAbriuRodada).append(' ').append(s.pontosEquipe[0]).append(' ')
                .append(s.pontosEquipe[1]);
        if (op.equals("J")) {
            b.append(s.podeFechada ? " 1" : " 0");
        }
        b.append(' ').append(text(s.cartasJogador)).append(' ');
        for (int i = 0; i < 12; i++) {
            Carta c = s.cartasJogadas[i / 4][i % 4];
            b.append(i == 0 ? "" : ",").append(c == null ? "-" : c.isFechada() ? "xx" : c.toString());
        }
        if (partner != null) {
            b.append(' ').append(text(partner));
        }
        return b.toString();
    }

    /** The seed of one decision: the salt mixed with a 64-bit FNV-1a hash of the situation's text. */
    static long seed(long salt, String canon) {
        long h = 0xcbf29ce484222325L;
        for (byte x : canon.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (x & 0xff)) * 0x100000001b3L;
        }
        return h ^ (salt * 0x9E3779B97F4A7C15L);
    }

    static String text(Carta[] cards) {
        if (cards == null || cards.length == 0) {
            return "-";
        }
        StringBuilder b = new StringBuilder();
        for (Carta c : cards) {
            b.append(b.length() == 0 ? "" : ",").append(c);
        }
        return b.toString();
    }

    /** The static Random of a strategy's class. */
    static Random randomOfClass(Class<?> strategy) {
        try {
            return randomOf(strategy);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Carta[] cards(String field) {
        if (field.equals("-")) {
            return new Carta[0];
        }
        String[] parts = field.split(",");
        Carta[] out = new Carta[parts.length];
        for (int i = 0; i < parts.length; i++) {
            out[i] = new Carta(parts[i]);
        }
        return out;
    }

    private static SituacaoJogo situation(String[] f) {
        SituacaoJogo s = new SituacaoJogo();
        s.posJogador = Integer.parseInt(f[3]);
        s.numRodadaAtual = Integer.parseInt(f[4]);
        for (int i = 0; i < 3; i++) {
            s.resultadoRodada[i] = Integer.parseInt(f[5 + i]);
        }
        s.valorMao = Integer.parseInt(f[8]);
        s.valorProximaAposta = Integer.parseInt(f[9]);
        s.posJogadorPedindoAumento = Integer.parseInt(f[10]);
        s.posJogadorQueAbriuRodada = Integer.parseInt(f[11]);
        s.pontosEquipe[0] = Integer.parseInt(f[12]);
        s.pontosEquipe[1] = Integer.parseInt(f[13]);
        s.podeFechada = f[14].equals("1");
        s.cartasJogador = cards(f[15]);
        String[] played = f[16].split(",");
        for (int i = 0; i < 12; i++) {
            String c = played[i];
            if (c.equals("-")) {
                continue;
            }
            Carta carta = c.equals("xx") ? new Carta(Carta.LETRA_NENHUMA, Carta.NAIPE_NENHUM) : new Carta(c);
            carta.setFechada(c.equals("xx"));
            s.cartasJogadas[i / 4][i % 4] = carta;
        }
        s.manilha = SituacaoJogo.MANILHA_VELHA;
        s.baralhoSujo = true;
        return s;
    }

    public static void main(String[] args) throws Exception {
        // The strategies may print: keep stdout for the answers alone.
        PrintStream out = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out)), false,
                StandardCharsets.UTF_8);
        System.setOut(System.err);
        Estrategia gasparotto = new EstrategiaGasparotto();
        Estrategia sellani = new EstrategiaSellani();
        Random gRandom = randomOf(EstrategiaGasparotto.class);
        Random sRandom = randomOf(EstrategiaSellani.class);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String answer;
            String canon = "";
            try {
                String[] f = line.trim().split(" ");
                boolean g = f[1].equals("G");
                Estrategia e = g ? gasparotto : sellani;
                SituacaoJogo s = situation(f);
                Carta[] partner = f[0].equals("X") ? cards(f[17]) : null;
                canon = canon(f[0], s, partner);
                (g ? gRandom : sRandom).setSeed(seed(Long.parseLong(f[2]), canon));
                switch (f[0]) {
                    case "J":
                        answer = Integer.toString(e.joga(s));
                        break;
                    case "A":
                        answer = e.aceitaTruco(s) ? "1" : "0";
                        break;
                    case "X":
                        answer = e.aceitaMaoDeX(partner, s) ? "1" : "0";
                        break;
                    default:
                        answer = "error: no such request " + f[0];
                }
            } catch (RuntimeException ex) {
                answer = "error: " + ex.toString().replace('\n', ' ');
            }
            out.println(answer + "\t" + canon);
            out.flush();
        }
    }
}
