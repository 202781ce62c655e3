//! The `sandtable` binary: parses the command line and hands over to the library.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    sandtable::cli::main()
}
