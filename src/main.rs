//! The gsd binary: everything lives in the library; this only sets the
//! allocator and maps the result to an exit code.

// mimalloc: loading a tree makes many small allocations on several threads;
// glibc's per-thread arenas grow by mprotect calls that cost more than the
// parsing itself (measured with perf on a 420-file tree).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    // A run lasts milliseconds and touches a few MB: transparent huge pages
    // only make the kernel zero 2 MB at a time (a fifth of `gsd lint`'s time
    // on a 420-file tree, measured with perf). Switch them off for us.
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_THP_DISABLE takes plain integers and only
    // changes this process's memory policy.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
    std::process::exit(gsd::cli::main());
}
