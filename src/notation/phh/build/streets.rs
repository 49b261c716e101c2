//! The street of each action, as pokerkit counts them.

use super::*;

/// The street (betting round) of each action, as pokerkit's state counts
/// it: dealing belongs to the round it opens, a draw to the round after
/// the betting before it, showdown actions to the last round reached.
pub(super) struct Streets {
    pub(super) street: i32,
    /// A betting action in this round.
    bet: bool,
    /// Anything but a no-op in this round.
    any: bool,
    /// Players dealt hole cards in this round.
    dealt: Vec<bool>,
    /// Players who drew in this round.
    drew: Vec<bool>,
}

impl Streets {
    pub(super) fn new(players: usize) -> Self {
        Streets {
            street: 0,
            bet: false,
            any: false,
            dealt: vec![false; players],
            drew: vec![false; players],
        }
    }

    pub(super) fn open(&mut self) {
        self.street += 1;
        self.bet = false;
        self.any = false;
        self.dealt.iter_mut().for_each(|d| *d = false);
        self.drew.iter_mut().for_each(|d| *d = false);
    }

    /// The street of an action of `kind` by (or to) player `p`.
    pub(super) fn next(&mut self, kind: Option<Kind>, p: Option<u32>) -> i32 {
        let slot = p
            .map(|p| p as usize)
            .filter(|&p| p >= 1 && p <= self.dealt.len())
            .map(|p| p - 1);
        match kind {
            None => return self.street,
            Some(Kind::DealBoard) => {
                if self.any {
                    self.open();
                }
            }
            Some(Kind::DealHole) => {
                if self.bet || slot.is_some_and(|i| self.dealt[i]) {
                    self.open();
                }
                if let Some(i) = slot {
                    self.dealt[i] = true;
                }
            }
            Some(Kind::StandPatDiscard) => {
                if self.bet || slot.is_some_and(|i| self.drew[i]) {
                    self.open();
                }
                if let Some(i) = slot {
                    self.drew[i] = true;
                }
            }
            Some(k) if k.bets() => self.bet = true,
            Some(_) => {}
        }
        self.any = true;
        self.street
    }
}
