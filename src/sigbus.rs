//! An input cut short by another program while deckhand has it mapped:
//! reading the mapped pages past its new end raises SIGBUS, which killed
//! deckhand with the shell's "Bus error" and no word of which input. The
//! handler installed here names the input and exits with status 2 (a fatal
//! error, as for an input that cannot be read); as after any kill, only
//! temporary files are left in the output directory.
//!
//! Only a mapped input can raise SIGBUS in deckhand (its other maps are
//! anonymous memory), and inputs are mapped one at a time, so the input
//! named is the one mapped last.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};

/// Whether the handler is installed: only then are messages kept.
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// The message for the input mapped last, and its length. Null until an
/// input is mapped. Messages are never freed (a handler may be reading
/// one): a hundred bytes or so an input mapped, kept only where the handler
/// is installed (the command-line tool, which maps each input once).
static MESSAGE: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
static MESSAGE_LEN: AtomicUsize = AtomicUsize::new(0);

const UNNAMED: &[u8] =
    b"deckhand: error: an input was cut short by another program while it was being read (SIGBUS)\n";

/// Notes that `path` is about to be read through a map.
pub fn mapping(path: &Path) {
    if !INSTALLED.load(Ordering::Acquire) {
        return;
    }
    let text = format!(
        "deckhand: error: {} was cut short by another program while it was being read (SIGBUS)\n",
        path.display()
    );
    let bytes: &'static mut [u8] = Box::leak(text.into_bytes().into_boxed_slice());
    // The length first, then the pointer: a handler that sees the new
    // pointer sees its length (both are read with Acquire below).
    MESSAGE.store(std::ptr::null_mut(), Ordering::Release);
    MESSAGE_LEN.store(bytes.len(), Ordering::Release);
    MESSAGE.store(bytes.as_mut_ptr(), Ordering::Release);
}

#[cfg(unix)]
extern "C" fn on_sigbus(_: libc::c_int) {
    let ptr = MESSAGE.load(Ordering::Acquire);
    let (ptr, len) = if ptr.is_null() {
        (UNNAMED.as_ptr(), UNNAMED.len())
    } else {
        (ptr.cast_const(), MESSAGE_LEN.load(Ordering::Acquire))
    };
    // SAFETY: `write` and `_exit` are async-signal-safe; the bytes are a
    // leaked message or a constant, never freed.
    unsafe {
        libc::write(2, ptr.cast(), len);
        libc::_exit(2);
    }
}

/// Installs the handler (the command-line tool does, before any input is
/// read). Does nothing where it cannot be installed.
pub fn install() {
    #[cfg(unix)]
    // SAFETY: a zeroed `sigaction` with a handler of the right type; the
    // handler only reads atomics and calls async-signal-safe functions.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigbus as extern "C" fn(libc::c_int) as libc::sighandler_t;
        libc::sigemptyset(&mut action.sa_mask);
        if libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut()) == 0 {
            INSTALLED.store(true, Ordering::Release);
        }
    }
}
