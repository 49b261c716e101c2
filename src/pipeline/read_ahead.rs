//! A stream read (and decompressed) on a thread of its own, a few pieces
//! ahead of the parser: decoding a gzip or zstd input then overlaps the
//! parsing of what came before instead of alternating with it. The bytes,
//! their order and the errors are those of the stream itself.

use std::io::Read;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use super::feed::{Pull, fill};
use crate::source::Stream;

/// Pieces read but not yet taken (each of the run's chunk size).
const PIECES_AHEAD: usize = 2;

/// One piece of the stream.
struct Piece {
    bytes: Vec<u8>,
    /// Raw (compressed) bytes read once this piece was.
    consumed: u64,
    /// How the stream ended after this piece, if it did.
    end: Option<std::io::Result<()>>,
}

/// Reads `stream` in pieces of `piece` bytes into `tx` until it ends, fails
/// or the receiver is gone.
fn produce(stream: &mut Stream, piece: usize, tx: SyncSender<Piece>) {
    loop {
        let mut bytes = Vec::with_capacity(piece);
        let end = match fill(stream, &mut bytes, piece) {
            Ok(false) => None,
            Ok(true) => Some(Ok(())),
            Err(e) => Some(Err(e)),
        };
        let last = end.is_some();
        let p = Piece {
            bytes,
            consumed: stream.raw_consumed(),
            end,
        };
        if tx.send(p).is_err() || last {
            return;
        }
    }
}

/// The parser's side: reads the pieces in order.
pub struct ReadAhead {
    rx: Receiver<Piece>,
    cur: Vec<u8>,
    pos: usize,
    consumed: u64,
    /// The end after the current piece, once it is reached.
    end: Option<std::io::Result<()>>,
    ended: bool,
}

impl Read for ReadAhead {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while self.pos == self.cur.len() {
            if let Some(end) = self.end.take() {
                self.ended = true;
                end?;
            }
            if self.ended {
                return Ok(0);
            }
            // A closed channel: the reading thread is gone (it panicked);
            // its join reports that.
            let Ok(p) = self.rx.recv() else {
                self.ended = true;
                return Ok(0);
            };
            (self.cur, self.pos, self.consumed, self.end) = (p.bytes, 0, p.consumed, p.end);
        }
        let n = out.len().min(self.cur.len() - self.pos);
        out[..n].copy_from_slice(&self.cur[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

impl Pull for ReadAhead {
    fn consumed(&self) -> u64 {
        self.consumed
    }
}

/// Runs `parse` on `stream` read ahead on a scoped thread, in pieces of
/// `piece` bytes; gives the stream back (for its warning) with the result.
pub fn with_read_ahead<R>(
    stream: Stream,
    piece: usize,
    parse: impl FnOnce(&mut ReadAhead) -> R,
) -> (Stream, R) {
    std::thread::scope(|scope| {
        let (tx, rx) = sync_channel(PIECES_AHEAD);
        let reader = scope.spawn(move || {
            let mut stream = stream;
            produce(&mut stream, piece.max(1), tx);
            stream
        });
        let mut ahead = ReadAhead {
            rx,
            cur: Vec::new(),
            pos: 0,
            consumed: 0,
            end: None,
            ended: false,
        };
        let result = parse(&mut ahead);
        // A parse that stopped early lets the reader stop too.
        drop(ahead);
        let stream = match reader.join() {
            Ok(s) => s,
            Err(panic) => std::panic::resume_unwind(panic),
        };
        (stream, result)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stream(bytes: &[u8]) -> Stream {
        Stream::new(Box::new(std::io::Cursor::new(bytes.to_vec()))).unwrap()
    }

    /// Every byte in order, whatever the piece size and the reads' sizes.
    #[test]
    fn pieces_give_the_stream_back_in_order() {
        let bytes: Vec<u8> = (0..20_000u32).map(|i| (i * 7 % 251) as u8).collect();
        for piece in [1, 7, 4096, 20_000, 1 << 20] {
            for read in [1, 3, 5000] {
                let (_, got) = with_read_ahead(stream(&bytes), piece, |r| {
                    let mut got = Vec::new();
                    let mut buf = vec![0u8; read];
                    loop {
                        let n = r.read(&mut buf).unwrap();
                        if n == 0 {
                            break;
                        }
                        got.extend_from_slice(&buf[..n]);
                    }
                    assert_eq!(r.consumed(), bytes.len() as u64);
                    got
                });
                assert_eq!(got, bytes, "piece {piece}, reads of {read}");
            }
        }
    }

    /// A read error comes after the bytes before it, once; then the end.
    #[test]
    fn an_error_comes_after_the_bytes_before_it() {
        struct Failing(usize);
        impl Read for Failing {
            fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
                if self.0 == 0 {
                    return Err(std::io::Error::other("disk on fire"));
                }
                let n = out.len().min(self.0).min(3);
                out[..n].fill(b'x');
                self.0 -= n;
                Ok(n)
            }
        }
        let s = Stream::new(Box::new(Failing(10))).unwrap();
        let (_, (got, err, after)) = with_read_ahead(s, 4, |r| {
            let mut got = Vec::new();
            let mut buf = [0u8; 2];
            let err = loop {
                match r.read(&mut buf) {
                    Ok(0) => break None,
                    Ok(n) => got.extend_from_slice(&buf[..n]),
                    Err(e) => break Some(e.to_string()),
                }
            };
            (got, err, r.read(&mut buf).unwrap())
        });
        assert_eq!(got, b"xxxxxxxxxx");
        assert_eq!(err.as_deref(), Some("disk on fire"));
        assert_eq!(after, 0);
    }

    /// A parse that stops early does not wait for the rest of the input,
    /// and the reader stops a few pieces in rather than reading it all.
    #[test]
    fn stopping_early_ends_the_reader() {
        let bytes = vec![b'a'; 10 << 20];
        let (stream, first) = with_read_ahead(stream(&bytes), 4096, |r| {
            let mut b = [0u8; 1];
            r.read(&mut b).unwrap()
        });
        assert_eq!(first, 1);
        // The piece taken, those waiting and the one being read.
        assert!(
            stream.raw_consumed() <= 4 * 4096,
            "{}",
            stream.raw_consumed()
        );
    }
}
