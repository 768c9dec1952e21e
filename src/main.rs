//! The gsd binary: everything lives in the library; this only sets the
//! allocator and maps the result to an exit code.

// mimalloc: loading a tree makes many small allocations on several threads;
// glibc's per-thread arenas grow by mprotect calls that cost more than the
// parsing itself (measured with perf on a 420-file tree).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(gsd::cli::main());
}
