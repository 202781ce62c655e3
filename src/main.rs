//! The `sandtable` binary: parses the command line and hands over to the library.

#[global_allocator]
static GLOBAL: sandtable::memory::Counting<mimalloc::MiMalloc> =
    sandtable::memory::Counting(mimalloc::MiMalloc);

fn main() -> std::process::ExitCode {
    sandtable::cli::main()
}
