//! The hand evaluators (`games::poker::eval`) order hands as pokerkit does:
//! 4,800 pairs of random hands of the eight kinds of pots (standard and
//! short-deck hold'em, Omaha high and eight-or-better, stud eight-or-better,
//! razz, deuce-to-seven, badugi), compared by pokerkit 0.7.7
//! (testdata/poker/eval_pairs.txt, written by scripts/pokerkit_eval_pairs.py).

use std::cmp::Ordering;

use deckhand::games::poker::Card;
use deckhand::games::poker::eval::{self, Known, Ranking};

fn cards(s: &str) -> Vec<Known> {
    s.as_bytes()
        .chunks(2)
        .map(|p| Known::of(Card::from_letters(p[0], p[1]).unwrap()).unwrap())
        .collect()
}

/// The key of a hand (`hole/board`) for a kind of pot; None when no hand
/// of that kind can be formed.
fn key(kind: &str, text: &str) -> Option<u32> {
    let (hole, board) = text.split_once('/').unwrap();
    let (hole, board) = (cards(hole), cards(board));
    let all: Vec<Known> = hole.iter().chain(&board).copied().collect();
    let high = |r| move |h: &[Known; 5]| Some(eval::five(h, r));
    match kind {
        "high" => eval::best_of(&all, high(Ranking::Standard)),
        "short" => eval::best_of(&all, high(Ranking::ShortDeck)),
        "omaha" => eval::best_omaha(&hole, &board, high(Ranking::Standard)),
        "omaha8" => eval::best_omaha(&hole, &board, eval::eight_or_better),
        "stud8" => eval::best_of(&all, eval::eight_or_better),
        "razz" => eval::best_of(&all, |h| Some(eval::ace_to_five(h))),
        "deuce" => eval::best_of(&all, |h| Some(eval::deuce_to_seven(h))),
        "badugi" => Some(eval::badugi(&all)),
        _ => panic!("kind {kind}"),
    }
}

#[test]
fn every_pair_is_ordered_as_pokerkit_orders_it() {
    let text = std::fs::read_to_string("testdata/poker/eval_pairs.txt").unwrap();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for line in text.lines() {
        let w: Vec<&str> = line.split(' ').collect();
        let (kind, a, b, want) = (w[0], w[1], w[2], w[3]);
        let got = match key(kind, a).cmp(&key(kind, b)) {
            Ordering::Greater => ">",
            Ordering::Equal => "=",
            Ordering::Less => "<",
        };
        checked += 1;
        if got != want {
            wrong.push(format!("{line}: deckhand {got}"));
        }
    }
    assert_eq!(checked, 4800);
    assert!(
        wrong.is_empty(),
        "{} of {checked}:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(20)].join("\n")
    );
}
