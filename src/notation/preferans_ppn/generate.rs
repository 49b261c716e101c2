//! `deckhand generate --game preferans`: deterministic archives of legal
//! Preferans deals in Portable Preferans Notation, for tests and
//! benchmarks. Every deal is dealt from a shuffled deck, bid to a
//! contract (2 to 7: the rules of 8 are not given), played card by card by
//! the rules (follow suit, else trump, else any card) with each trick's
//! winner leading the next, and written with the fourteen fields; a share
//! of deals are passed out (the short form), played without the talon
//! (`G`), declined by both followers (no throws), with one follower (two
//! cards a throw), with an invitation, kontras or a refa, or stopped early
//! once the result is decided. Each game's tags end with results made by
//! the generator's own arithmetic (the middles' sum), not Preferans
//! scoring.

use std::io::Write;

use rayon::prelude::*;

use super::syntax::card_char;
use crate::games::preferans::Card;
use crate::games::preferans::card::Suit;
use crate::games::preferans::contract::Contract;
use crate::games::preferans::rules::winner;
use crate::rng::Rng;

/// What `generate` made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub deals: u64,
    pub games: u64,
    pub bytes: u64,
}

const NAMES: [&str; 8] = [
    "cope",
    "silvio_pu",
    "elmacedon",
    "Ana Lee",
    "mika",
    "Đorđe",
    "zoran_k",
    "preferansko_sunce",
];

/// Deals a game: 12 to 40.
fn deals_in(rng: &mut Rng) -> u64 {
    12 + rng.below(29) as u64
}

fn next(p: u8) -> u8 {
    p % 3 + 1
}

/// The cards `hand` may play to a trick whose suit led is `led`.
fn legal(hand: &[Card], led: Option<Suit>, trump: Option<Suit>) -> Vec<usize> {
    let pick = |f: &dyn Fn(&Card) -> bool| -> Vec<usize> {
        (0..hand.len()).filter(|&i| f(&hand[i])).collect()
    };
    let Some(led) = led else {
        return (0..hand.len()).collect();
    };
    let follow = pick(&|c| c.suit == led);
    if !follow.is_empty() {
        return follow;
    }
    if let Some(t) = trump {
        let trumps = pick(&|c| c.suit == t);
        if !trumps.is_empty() {
            return trumps;
        }
    }
    (0..hand.len()).collect()
}

/// The throws of a deal played out at random within the rules, from
/// `starts`, by the players `playing`; and the tricks each won.
fn play_throws(
    rng: &mut Rng,
    hands: &mut [Vec<Card>; 3],
    playing: &[u8],
    starts: u8,
    trump: Option<Suit>,
    main: u8,
    number: u8,
) -> (Vec<String>, [i32; 3]) {
    let mut throws = Vec::new();
    let mut won = [0i32; 3];
    // A share of deals stop once their result is decided.
    let stop_early = rng.chance(0.1);
    let mut leader = starts;
    for _ in 0..10 {
        let mut p = leader;
        let mut seq: Vec<(u8, Card)> = Vec::with_capacity(3);
        for _ in 0..3 {
            if playing.contains(&p) {
                let h = &mut hands[p as usize - 1];
                let led = seq.first().map(|x| x.1.suit);
                let options = legal(h, led, trump);
                let c = h.remove(options[rng.below(options.len())]);
                seq.push((p, c));
            }
            p = next(p);
        }
        let cs: Vec<Card> = seq.iter().map(|x| x.1).collect();
        let w = seq[winner(&cs, trump).expect("cards")].0;
        won[w as usize - 1] += 1;
        let mut t: String = cs.iter().map(|&c| card_char(c) as char).collect();
        t.push((b'0' + w) as char);
        throws.push(t);
        leader = w;
        let m = won[main as usize - 1];
        let against: i32 = won.iter().sum::<i32>() - m;
        let decided = if number == 6 {
            m > 0
        } else {
            m >= 6 || against >= 5
        };
        if stop_early && decided {
            break;
        }
    }
    (throws, won)
}

/// What the summary of a played deal depends on.
struct Played<'f> {
    main: u8,
    number: u8,
    value: i32,
    /// The main player made the contract.
    passed: bool,
    followers: &'f [u8],
    /// The invited player, when their entry gives their tricks.
    invited: Option<u8>,
}

/// The summary's entries in deal order (the followers' middles added to
/// `middles` where they fail).
fn summary_entries(
    order: &[u8; 3],
    d: &Played<'_>,
    tricks: &[i32; 3],
    middles: &mut [i32; 3],
) -> Vec<String> {
    order
        .iter()
        .map(|&p| {
            let t = tricks[p as usize - 1];
            if p == d.main && d.followers.is_empty() {
                // Nobody follows: the spec's convention gives the main player
                // the six tricks of passing (`M6:-20`).
                format!("M6:{}", middles[p as usize - 1])
            } else if p == d.main {
                format!("M{t}:{}", middles[p as usize - 1])
            } else if d.invited == Some(p) {
                let side = if next(p) == d.main { 'R' } else { 'L' };
                format!("F{t}:{side}{}", t * d.value)
            } else if d.followers.contains(&p) {
                let side = if next(p) == d.main { 'R' } else { 'L' };
                let mut e = format!("F{t}:{side}{}", t * d.value);
                if d.passed && d.number != 6 && t < 2 && d.followers.len() == 2 {
                    e.push_str(&format!(":{}", d.value));
                    middles[p as usize - 1] += d.value;
                }
                e
            } else {
                "0".to_string()
            }
        })
        .collect()
}

/// One deal line (without its line end), and each player's middle entry.
fn deal(id: u64, dealer: u8, rng: &mut Rng, out: &mut String) -> [i32; 3] {
    let order = [next(dealer), next(next(dealer)), dealer];
    let mut deck: Vec<Card> = Card::deck().collect();
    rng.shuffle(&mut deck);
    let cards: String = deck.iter().map(|&c| card_char(c) as char).collect();
    let hand_of = |p: u8| {
        let i = order.iter().position(|&x| x == p).expect("a player");
        deck[i * 10..i * 10 + 10].to_vec()
    };
    let mut middles = [0; 3];
    if rng.chance(0.15) {
        out.push_str(&format!(
            "[{id} {}{}{} {cards} P,P,P]",
            order[0], order[1], order[2]
        ));
        return middles;
    }
    let main = order[rng.below(3)];
    let number = 2 + rng.below(6) as u8;
    let without_talon = rng.chance(0.2);
    let contract = Contract::new(number, without_talon).expect("2 to 7");
    let trump = contract.trump();
    let mut hands: [Vec<Card>; 3] = [hand_of(1), hand_of(2), hand_of(3)];
    let discarded = if without_talon {
        "XX".to_string()
    } else {
        let h = &mut hands[main as usize - 1];
        h.extend_from_slice(&deck[30..32]);
        let a = h.remove(rng.below(h.len()));
        let b = h.remove(rng.below(h.len()));
        format!("{}{}", card_char(a) as char, card_char(b) as char)
    };
    let bids: Vec<String> = order
        .iter()
        .map(|&p| {
            if p != main {
                "P".to_string()
            } else if without_talon {
                format!("G{number}")
            } else {
                number.to_string()
            }
        })
        .collect();
    let others: Vec<u8> = (1..=3).filter(|&p| p != main).collect();
    // Who follows: nobody, one, or both (betl: both).
    let roll = rng.below(20);
    let (accepted, followers): (u8, Vec<u8>) = if number == 6 || roll >= 9 {
        (8, others.clone())
    } else if roll >= 2 {
        let f = others[rng.below(2)];
        (f, vec![f])
    } else {
        (0, vec![])
    };
    // Kontras and invitations.
    let kontra = if followers.len() == 1 && rng.chance(0.3) {
        (b'I', followers[0])
    } else if !followers.is_empty() && rng.chance(0.15) {
        (b"KRSM"[rng.below(4)], followers[rng.below(followers.len())])
    } else {
        (b'0', 0)
    };
    let multiplier = match kontra.0 {
        b'K' => 2,
        b'R' => 4,
        b'S' => 8,
        b'M' => 16,
        _ => 1,
    };
    let refa = rng.chance(0.1);
    let value = 2 * (number as i32 + without_talon as i32) * if refa { 2 } else { 1 } * multiplier;
    let playing: Vec<u8> = if kontra.0 == b'I' || followers.len() == 2 {
        vec![1, 2, 3]
    } else {
        let mut v = followers.clone();
        v.push(main);
        v
    };
    // The first player leads, or the next when the first does not play.
    let starts = if playing.contains(&order[0]) {
        order[0]
    } else {
        next(order[0])
    };
    let (throws, won) = if followers.is_empty() {
        (Vec::new(), [0; 3])
    } else {
        play_throws(rng, &mut hands, &playing, starts, trump, main, number)
    };
    // The tricks taken (when nobody follows, the main player takes all
    // ten without play).
    let mut tricks = won;
    if followers.is_empty() {
        tricks[main as usize - 1] = 10;
    }
    let main_tricks = tricks[main as usize - 1];
    let passed = if number == 6 {
        main_tricks == 0
    } else {
        main_tricks >= 6
    };
    middles[main as usize - 1] = if passed { -value } else { value };
    // The player the follower invited plays too; their entry is written `0`
    // (the spec's deal line) or with their tricks (its JSON), at random.
    let invited = (kontra.0 == b'I')
        .then(|| (1..=3).find(|&p| p != main && !followers.contains(&p)))
        .flatten();
    let invited_entry = invited.is_some() && rng.chance(0.5);
    let deal = Played {
        main,
        number,
        value,
        passed,
        followers: &followers,
        invited: invited.filter(|_| invited_entry),
    };
    let entries = summary_entries(&order, &deal, &tricks, &mut middles);
    let kontra_text = if kontra.0 == b'0' {
        "0".to_string()
    } else {
        format!("{}{}", kontra.0 as char, kontra.1)
    };
    out.push_str(&format!(
        "[{id} {}{}{} {cards} {} {main} {discarded} {}{number} {accepted} {kontra_text} {} {value} {starts} {} {}]",
        order[0],
        order[1],
        order[2],
        bids.join(","),
        if without_talon { "G" } else { "" },
        refa as u8,
        if throws.is_empty() {
            "0".to_string()
        } else {
            throws.join(",")
        },
        entries.join(","),
    ));
    middles
}

/// One game: its tags and deal lines.
fn game(seed: u64, index: u64, deals: u64, crlf: bool) -> String {
    let mut rng = Rng::for_item(seed, index);
    let eol = if crlf { "\r\n" } else { "\n" };
    let mut body = String::with_capacity(deals as usize * 120);
    let mut total = [0i32; 3];
    let mut dealer = 1 + rng.below(3) as u8;
    for id in 1..=deals {
        let m = deal(id, dealer, &mut rng, &mut body);
        body.push_str(eol);
        for p in 0..3 {
            total[p] += m[p];
        }
        dealer = next(dealer);
    }
    let mut names = NAMES;
    rng.shuffle(&mut names);
    let mut places: Vec<usize> = (0..3).collect();
    places.sort_by_key(|&p| (total[p], p));
    let mut s = String::with_capacity(body.len() + 300);
    s.push_str(&format!("[Bula 60]{eol}[Refe {}]{eol}", 2 + rng.below(3)));
    for (p, name) in names.iter().take(3).enumerate() {
        if name.contains(' ') {
            s.push_str(&format!("[Player{} \"{name}\"]{eol}", p + 1));
        } else {
            s.push_str(&format!("[Player{} {name}]{eol}", p + 1));
        }
    }
    for (p, t) in total.iter().enumerate() {
        s.push_str(&format!("[Result{} {}]{eol}", p + 1, -t));
    }
    for p in 0..3 {
        let place = places.iter().position(|&x| x == p).expect("placed") + 1;
        s.push_str(&format!("[Place{} {place}]{eol}", p + 1));
    }
    s.push_str(&format!(
        "[Date 2026.{:02}.{:02}]{eol}{eol}",
        1 + rng.below(12),
        1 + rng.below(28)
    ));
    s.push_str(&body);
    s.push_str(eol);
    s
}

/// Writes games of about `deals` deals in all (whole games: at least
/// `deals`), made from `seed`, in parallel batches.
pub fn generate(deals: u64, seed: u64, crlf: bool, out: &mut impl Write) -> std::io::Result<Stats> {
    let mut stats = Stats::default();
    let mut sizes = Vec::new();
    let mut rng = Rng::new(seed);
    let mut n = 0;
    while n < deals {
        let d = deals_in(&mut rng).min(deals - n);
        sizes.push(d);
        n += d;
    }
    const BATCH: usize = 256;
    for (b, chunk) in sizes.chunks(BATCH).enumerate() {
        let texts: Vec<String> = chunk
            .par_iter()
            .enumerate()
            .map(|(i, &d)| game(seed, (b * BATCH + i) as u64, d, crlf))
            .collect();
        for (t, &d) in texts.iter().zip(chunk) {
            out.write_all(t.as_bytes())?;
            stats.bytes += t.len() as u64;
            stats.deals += d;
            stats.games += 1;
        }
    }
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_archive() {
        let mut a = Vec::new();
        let mut b = Vec::new();
        let s = generate(100, 7, false, &mut a).unwrap();
        generate(100, 7, false, &mut b).unwrap();
        assert_eq!(a, b);
        assert_eq!(s.deals, 100);
        assert_eq!(s.bytes, a.len() as u64);
        let mut c = Vec::new();
        generate(100, 8, false, &mut c).unwrap();
        assert_ne!(a, c);
    }
}
