//! The four seats, clockwise, and the two sides.

/// A seat, in clockwise order from North.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    N,
    E,
    S,
    W,
}

/// A partnership.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    NS,
    EW,
}

impl Seat {
    pub const ALL: [Seat; 4] = [Seat::N, Seat::E, Seat::S, Seat::W];

    /// The seat's letter (`N`, `E`, `S`, `W`), either case.
    pub fn parse(b: u8) -> Option<Seat> {
        match b.to_ascii_uppercase() {
            b'N' => Some(Seat::N),
            b'E' => Some(Seat::E),
            b'S' => Some(Seat::S),
            b'W' => Some(Seat::W),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        ["N", "E", "S", "W"][self as usize]
    }

    /// The seat `k` places clockwise from this one.
    pub fn after(self, k: usize) -> Seat {
        Seat::ALL[(self as usize + k) % 4]
    }

    /// The next seat clockwise (the left-hand opponent).
    pub fn next(self) -> Seat {
        self.after(1)
    }

    pub fn partner(self) -> Seat {
        self.after(2)
    }

    pub fn side(self) -> Side {
        match self {
            Seat::N | Seat::S => Side::NS,
            Seat::E | Seat::W => Side::EW,
        }
    }
}

impl Side {
    pub fn as_str(self) -> &'static str {
        match self {
            Side::NS => "NS",
            Side::EW => "EW",
        }
    }
}

/// Whether `side` is vulnerable under a normalized vulnerability.
pub fn vulnerable(vul: &str, side: Side) -> bool {
    match vul {
        "All" => true,
        "NS" => side == Side::NS,
        "EW" => side == Side::EW,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_go_clockwise_and_pair_up() {
        assert_eq!(Seat::W.next(), Seat::N);
        assert_eq!(Seat::E.after(3), Seat::N);
        assert_eq!(Seat::S.partner(), Seat::N);
        assert_eq!((Seat::E.side(), Seat::S.side()), (Side::EW, Side::NS));
        assert_eq!(Seat::parse(b'w'), Some(Seat::W));
        assert_eq!(Seat::parse(b'X'), None);
    }
}
