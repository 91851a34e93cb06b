//! The `navlab` command: parses the command line and runs it. In the browser build, the page's
//! entry point: the window on the page's canvas.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    navlab::cli::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {
    navlab::app::web::start();
}
