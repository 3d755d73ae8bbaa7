//! The module's door, the one place with `unsafe`: the page asks for memory (`snl_alloc`), writes a
//! request's UTF-8 text there, calls a function with its address and length, and gets back the
//! answer's address and length packed in one `u64` (address in the high half); it reads the
//! answer and hands both pieces back (`snl_free`). No glue code is generated (no wasm-bindgen): the
//! typed wrapper is `crates/server/web/assets/engine.js`. (Not `alloc` and `free`: on the host,
//! where the tests run, those names would stand in for the C library's.)
#![allow(unsafe_code)]

use crate::{api, local};

/// `len` bytes for the page to write into (a zero-length piece is a dangling address, never
/// written or freed).
#[unsafe(no_mangle)]
pub extern "C" fn snl_alloc(len: usize) -> *mut u8 {
    Box::into_raw(vec![0_u8; len].into_boxed_slice()).cast::<u8>()
}

/// Hands back a piece of `len` bytes at `ptr` that `snl_alloc` made or an answer was given in.
///
/// # Safety
///
/// `ptr` and `len` are exactly those of one piece not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn snl_free(ptr: *mut u8, len: usize) {
    // SAFETY: the caller passes a piece made by `Box<[u8]>` of this length, freed once.
    drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) });
}

/// Reads the request at `ptr`, answers it with `f` and hands the answer to the page.
///
/// # Safety
///
/// `ptr` and `len` are those of a piece `snl_alloc` made, which the page wrote.
unsafe fn call(ptr: *const u8, len: usize, f: fn(&str) -> String) -> u64 {
    // SAFETY: the piece is `len` bytes the page has written, alive during the call.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    let answer = match std::str::from_utf8(bytes) {
        Ok(request) => f(request),
        Err(e) => serde_json::json!({ "error": format!("the request is not UTF-8 text: {e}") })
            .to_string(),
    };
    let answer = answer.into_bytes().into_boxed_slice();
    let len = answer.len() as u64;
    let ptr = Box::into_raw(answer).cast::<u8>() as usize as u64;
    (ptr << 32) | len
}

/// Exports each call of a module ([`api`], [`local`]) under its own name.
macro_rules! export {
    ($module:ident: $($name:ident),* $(,)?) => {$(
        #[doc = concat!("[`", stringify!($module), "::", stringify!($name), "`] through the page's memory.")]
        ///
        /// # Safety
        ///
        /// `ptr` and `len` are those of a piece `snl_alloc` made, which the page wrote.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(ptr: *const u8, len: usize) -> u64 {
            // SAFETY: passed on from the caller.
            unsafe { call(ptr, len, $module::$name) }
        }
    )*};
}

export!(api: check_board_file, board_check, board_of, options, odds, analysable, verify);
export!(local: local_new, local_act, local_odds);
