//! The PPN specification's own examples parse into exactly the values they state.

use crate::common;

use std::io::Write;

fn convert_text(text: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("spec.ppn");
    std::fs::File::create(&input)
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = dir.path().join("out");
    common::convert(&[input], &out, &common::quiet(1));
    common::render(&out)
        .into_iter()
        .map(|l| {
            // Lines named for the table alone (`bids[0] ...`).
            l.trim_start_matches("pinochle/").replace(
                &format!("\"{}\"", dir.path().join("spec.ppn").display()),
                "\"spec.ppn\"",
            )
        })
        .collect()
}

fn lines<'a>(all: &'a [String], table: &str) -> Vec<&'a str> {
    all.iter()
        .filter(|l| l.starts_with(&format!("{table}[")))
        .map(|l| l.as_str())
        .collect()
}

const SPEC_HAND: &str = r#"% PPN 1.0
% EXPORT
%
[Dealer "N"]
[Deal "E:ATTTQQJ.QQJJ.AQQQJ.TKQQ KQQJJ.TKKKKQ.AK.AATKQJJ TKJ.AAAATTJJ.AATTKJJ.KJ AAAKK.TQ.TTKKQJ.AATTKQJ"]
[Melds "N:QQ.KQQ.QQ.QQJJ(94) K.ATKQJ.KQ.KQ(27) J.J.J.J(4) KQ.ATKQJ(17)"]
[Holding "E:ATTTTKJQQJ.QQJ.AQJ.TKQQ KKQQJJ.TTKKKKQQ.K.TKQJJ .AAAATTJJJ.AATTKQQJJ.KJ AAAK..ATTKKQJ.AAAATTKQJ"]
[Passed "E:.J.QQ. ..A.AA TKJ... K.TQ.."]
[Discard "K.K..K (3)"]
[Kitty "SK H9 CT"]
[Termination "W:Time out"]
[Auction "E"]
Pass 52 59 60
- Pass 65 70
- - Pass
[Play "S"]
CA CJ CK CJ (S2)
DQ DT DJ DT (W2)
HA HJ HK HQ (W2)
HA HJ HK SK (S3)
DQ DA DJ DQ (W1)
CA CK CA CJ (W3)
CA CT CQ CJ (W2)
CK CT CQ CT (N3)
HT HA SJ HJ (S2)
DJ DA DK DJ (W2)
CK CT CQ CQ (N2)
DT ST DK DK (E4)
HT SQ HJ HA (S2)
DK DA ST SA (E4)
SQ ST SK SA (N3)
HQ HT ST HQ (S2)
SA HK SK SJ (S3)
DT DA SK SA (E4)
HT SQ HK HQ (S2)
SQ DQ SJ SJ (S2)
@P.19.3-R=[Chat "N:good game everyone"]
@P.19.4-R=[Chat "E:gga"]
@P.20.1-R=[Chat "S:gg"]
@P.20.2-R=[Chat "W:ty gg"]
"#;

#[test]
fn auction_example() {
    let all = convert_text(SPEC_HAND);
    let bids: Vec<String> = lines(&all, "bids")
        .iter()
        .map(|l| l.split_once(' ').unwrap().1.replace("hand_id=0 ", ""))
        .collect();
    assert_eq!(
        bids,
        [
            r#"seq=0 round=1 seat="E" call="Pass""#,
            r#"seq=1 round=1 seat="S" call="52" bid=52"#,
            r#"seq=2 round=1 seat="W" call="59" bid=59"#,
            r#"seq=3 round=1 seat="N" call="60" bid=60"#,
            r#"seq=4 round=2 seat="S" call="Pass""#,
            r#"seq=5 round=2 seat="W" call="65" bid=65"#,
            r#"seq=6 round=2 seat="N" call="70" bid=70"#,
            r#"seq=7 round=3 seat="W" call="Pass""#,
        ]
    );
}

#[test]
fn play_example_has_20_tricks_worth_50_points() {
    let all = convert_text(SPEC_HAND);
    let tricks = lines(&all, "tricks");
    assert_eq!(tricks.len(), 20);
    let points: u32 = tricks
        .iter()
        .map(|l| {
            let p = l.split(" points=").nth(1).unwrap();
            p.split(' ').next().unwrap().parse::<u32>().unwrap()
        })
        .sum();
    assert_eq!(points, 50);
    assert_eq!(
        tricks[0],
        r#"tricks[0] hand_id=0 trick=1 leader="S" cards=["CA", "CJ", "CK", "CJ"] winner="S" points=2 complete=true"#
    );
    // Each trick is led by the previous trick's winner.
    assert_eq!(
        tricks[2],
        r#"tricks[2] hand_id=0 trick=3 leader="W" cards=["HA", "HJ", "HK", "HQ"] winner="W" points=2 complete=true"#
    );
    assert_eq!(
        tricks[19],
        r#"tricks[19] hand_id=0 trick=20 leader="S" cards=["SQ", "DQ", "SJ", "SJ"] winner="S" points=2 complete=true"#
    );
}

#[test]
fn deal_melds_holding_passed_by_seat() {
    let all = convert_text(SPEC_HAND);
    let seats = lines(&all, "seats");
    assert_eq!(seats.len(), 4);
    // The Deal starts at E (left of dealer N); the Melds start at N.
    assert!(seats[1].starts_with(r#"seats[1] hand_id=0 seat="E" team=2 dealt=["CA", "CT", "CT", "CT", "CQ", "CQ", "CJ", "DQ", "DQ", "DJ", "DJ", "SA", "SQ", "SQ", "SQ", "SJ", "HT", "HK", "HQ", "HQ"]"#), "{}", seats[1]);
    assert!(seats[0].ends_with(r#"passed=["CK", "DT", "DQ"] meld_cards=["CQ", "CQ", "DK", "DQ", "DQ", "SQ", "SQ", "HQ", "HQ", "HJ", "HJ"] meld_points=94"#), "{}", seats[0]);
    assert!(seats[1].ends_with(r#"passed=["DJ", "SQ", "SQ"] meld_cards=["CK", "DA", "DT", "DK", "DQ", "DJ", "SK", "SQ", "HK", "HQ"] meld_points=27"#), "{}", seats[1]);
    assert!(
        seats[2].ends_with(
            r#"passed=["SA", "HA", "HA"] meld_cards=["CJ", "DJ", "SJ", "HJ"] meld_points=4"#
        ),
        "{}",
        seats[2]
    );
    assert!(seats[3].ends_with(r#"passed=["CT", "CK", "CJ"] meld_cards=["CK", "CQ", "DA", "DT", "DK", "DQ", "DJ"] meld_points=17"#), "{}", seats[3]);
    // Holding also starts at E, so its fourth entry (AAAK..) is North's.
    assert!(seats[0].contains(r#"held=["CA", "CA", "CA", "CK", "SA", "ST", "ST", "SK", "SK", "SQ", "SJ", "HA", "HA", "HA", "HA", "HT", "HT", "HK", "HQ", "HJ"]"#), "{}", seats[0]);
    assert!(seats[3].contains(r#"held=["DA", "DA", "DA", "DA", "DT", "DT", "DJ", "DJ", "DJ", "SA", "SA", "ST", "ST", "SK", "SQ", "SQ", "SJ", "SJ", "HK", "HJ"]"#), "{}", seats[3]);
}

#[test]
fn kitty_discard_termination_and_chat() {
    let all = convert_text(SPEC_HAND);
    let hand = lines(&all, "hands")[0];
    for part in [
        r#"kitty=["SK", "H9", "CT"]"#,
        r#"discard=["CK", "DK", "HK"] discard_points=3"#,
        r#"termination_seat="W" termination_cause="Time out""#,
        r#"auction_start="E" auction_terminated=false play_start="S" play_terminated=false"#,
    ] {
        assert!(hand.contains(part), "{part} not in {hand}");
    }
    let notes = lines(&all, "notes");
    assert_eq!(
        notes[0],
        r#"notes[0] hand_id=0 seq=0 tag="Chat" seat="N" text="good game everyone" value="N:good game everyone" segment="P.19.3-R" start_segment="P" start_number=19 start_sub=3 end_segment="R""#
    );
    assert_eq!(notes.len(), 4);
    assert!(notes[3].contains(r#"seat="W" text="ty gg""#));
    // The hand mixes tags of exchange variants (Passed, Kitty, Discard, Holding),
    // which the Standard profile does not cover: one info, no warnings.
    let errors = lines(&all, "errors");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains(r#"severity="info" code="P060""#),
        "{}",
        errors[0]
    );
}

#[test]
fn unreadable_play_cards_are_shown_as_written() {
    let all = convert_text("[Dealer \"N\"]\n[Play \"S\"]\nCA - ? ca (S2)\nXZ DT -- dt\n");
    let tricks = lines(&all, "tricks");
    assert_eq!(tricks.len(), 2);
    assert!(
        tricks[0].contains(r#"cards=["CA", "-", "?", "CA"]"#),
        "{}",
        tricks[0]
    );
    assert!(
        tricks[1].contains(r#"cards=["XZ", "DT", "--", "DT"]"#),
        "{}",
        tricks[1]
    );
}

#[test]
fn trick_annotations_of_every_shape() {
    // Seat and points in either case and with one or two digits, unknown
    // parts, a seat of two letters, points alone, and what is not an
    // annotation (warned about, read as nothing).
    let all = convert_text(
        "[Dealer \"N\"]\n[Play \"S\"]\nCA CJ CK CJ (s2)\nCA CJ CK CJ (W10)\nCA CJ CK CJ (E03)\n\
         CA CJ CK CJ (S?)\nCA CJ CK CJ (?2)\nCA CJ CK CJ (?)\nCA CJ CK CJ (NE3)\n\
         CA CJ CK CJ (7)\nCA CJ CK CJ (X3)\nCA CJ CK CJ (N3x)\nCA CJ CK CJ (N-1)\n",
    );
    let got: Vec<String> = lines(&all, "tricks")
        .iter()
        .map(|t| {
            // Rendered lines leave nulls out.
            let field = |name: &str| match t.find(&format!(" {name}=")) {
                Some(at) => t[at + name.len() + 2..]
                    .split(' ')
                    .next()
                    .unwrap()
                    .to_string(),
                None => "null".to_string(),
            };
            format!("{} {}", field("winner"), field("points"))
        })
        .collect();
    assert_eq!(
        got,
        [
            "\"S\" 2",
            "\"W\" 10",
            "\"E\" 3",
            "\"S\" null",
            "null 2",
            "null null",
            "\"NE\" 3",
            "null 7",
            "null null",
            "null null",
            "\"N\" -1"
        ]
    );
    let errors = lines(&all, "errors");
    let p034 = errors
        .iter()
        .filter(|e| e.contains("code=\"P034\""))
        .count();
    let p022 = errors
        .iter()
        .filter(|e| e.contains("code=\"P022\""))
        .count();
    // (X3) and (N3x) are not annotations; NE is not a seat of four players.
    assert_eq!((p034, p022), (2, 1), "{errors:#?}");
}
