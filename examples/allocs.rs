//! Live heap bytes and allocation counts per loading stage (not a test).
use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static COUNT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static INNER: mimalloc::MiMalloc = mimalloc::MiMalloc;
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(l.size(), Relaxed) + l.size();
        PEAK.fetch_max(live, Relaxed);
        COUNT.fetch_add(1, Relaxed);
        unsafe { INNER.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size(), Relaxed);
        unsafe { INNER.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        let live = LIVE.fetch_add(n, Relaxed) + n;
        PEAK.fetch_max(live, Relaxed);
        LIVE.fetch_sub(l.size(), Relaxed);
        COUNT.fetch_add(1, Relaxed);
        unsafe { INNER.realloc(p, l, n) }
    }
}
#[global_allocator]
static GLOBAL: Counting = Counting;

fn snap() -> (usize, usize) {
    (LIVE.load(Relaxed), COUNT.load(Relaxed))
}

/// What the heap gained between two snapshots: `+BYTESB/ALLOCATIONSa`.
fn grew(from: (usize, usize), to: (usize, usize)) -> String {
    format!("+{}B/{}a", to.0 as isize - from.0 as isize, to.1 - from.1)
}

/// `allocs TREE --skeleton`: what lint's streaming run holds, by stage.
fn skeleton(root: &std::path::Path) {
    let a = snap();
    let text = std::fs::read_to_string(root.join(".planning/ROADMAP.md")).unwrap_or_default();
    let b = snap();
    let doc = gsd::model::Document::parse(
        gsd::doc::Source::from_text(root.join(".planning/ROADMAP.md"), text),
        std::path::Path::new("ROADMAP.md"),
    );
    let c = snap();
    let roadmap = gsd::model::roadmap::Roadmap::parse(doc);
    let d = snap();
    drop(roadmap);
    let e = snap();
    let ws =
        gsd::model::Workspace::load_with(root, gsd::model::workspace::Scope::Skeleton).unwrap();
    let f = snap();
    let reading = gsd::model::reading::RoadmapReading::new(&ws);
    let g = snap();
    drop(reading);
    let h = snap();
    let run = gsd::lint::run_streaming(&ws, &Default::default());
    let i = snap();
    eprintln!(
        "ROADMAP.md text {}  document {}  Roadmap::parse {}",
        grew(a, b),
        grew(b, c),
        grew(c, d)
    );
    eprintln!(
        "skeleton {}  reading {}  streamed lint live {} ({} diags)",
        grew(e, f),
        grew(f, g),
        grew(h, i),
        run.diagnostics.len()
    );
    drop((ws, run));
    PEAK.store(LIVE.load(Relaxed), Relaxed);
    let base = LIVE.load(Relaxed);
    let project = gsd::lint::project::run_project(root, &Default::default()).unwrap();
    eprintln!(
        "gsd lint as the command runs it: peak live heap {} B ({} findings)",
        PEAK.load(Relaxed) - base,
        project.diagnostics.len()
    );
}

fn main() {
    let root = std::path::PathBuf::from(std::env::args().nth(1).unwrap());
    if std::env::args().nth(2).as_deref() == Some("--skeleton") {
        return skeleton(&root);
    }
    let mut paths = Vec::new();
    fn walk(d: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            if e.file_type().unwrap().is_dir() {
                walk(&e.path(), out)
            } else {
                out.push(e.path())
            }
        }
    }
    walk(&root.join(".planning"), &mut paths);
    let bytes: Vec<_> = paths.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let text: usize = bytes.iter().map(|b| b.len()).sum();
    eprintln!("files {} text {} bytes", paths.len(), text);
    let a = snap();
    let sources: Vec<_> = paths
        .iter()
        .zip(bytes)
        .map(|(p, b)| gsd::doc::Source::from_bytes(p.clone(), b))
        .collect();
    let b = snap();
    let docs: Vec<_> = sources
        .into_iter()
        .zip(&paths)
        .map(|(s, p)| gsd::model::Document::parse(s, p.clone()))
        .collect();
    let c = snap();
    let (plans, rest): (Vec<_>, Vec<_>) = docs
        .into_iter()
        .partition(|d| d.file_name().ends_with("PLAN.md"));
    let plans: Vec<_> = plans.into_iter().map(gsd::model::Plan::parse).collect();
    let d = snap();
    let sums: Vec<_> = rest
        .into_iter()
        .filter(|d| d.file_name().ends_with("SUMMARY.md"))
        .map(gsd::model::summary::Summary::parse)
        .collect();
    let e = snap();
    eprintln!(
        "source +{}B/{}a  yaml/doc +{}B/{}a  plans({}) +{}B/{}a  summaries({}) +{}B/{}a",
        b.0 - a.0,
        b.1 - a.1,
        c.0 - b.0,
        c.1 - b.1,
        plans.len(),
        d.0 - c.0,
        d.1 - c.1,
        sums.len(),
        e.0 as isize - d.0 as isize,
        e.1 - d.1
    );
    drop((plans, sums));
    let f = snap();
    let ws = gsd::model::Workspace::load(&root).unwrap();
    let g = snap();
    let diags = gsd::lint::run(&ws, &Default::default());
    let h = snap();
    eprintln!(
        "Workspace::load +{}B/{}a  lint live +{}B/{}a ({} diags)",
        g.0 - f.0,
        g.1 - f.1,
        h.0 as isize - g.0 as isize,
        h.1 - g.1,
        diags.len()
    );
}
