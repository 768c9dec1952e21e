fn main() {
    std::process::exit(gsd::cli::main());
}
