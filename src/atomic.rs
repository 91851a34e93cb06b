//! Saving without ever leaving a half-written file: write a temporary file beside the target,
//! flush it to disk, then rename it over the target.

use std::path::Path;

/// Writes `bytes` to `path` through a temporary file and a rename, so a crash never leaves a
/// half-written file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".to_string());
    let tmp = path.with_file_name(format!(".{name}.navlab-tmp"));
    let result = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("{}: cannot save: {e}", path.display())
    })
}
