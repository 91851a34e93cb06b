//! The `navlab` command: parses the command line and runs it.

fn main() -> std::process::ExitCode {
    navlab::cli::main()
}
