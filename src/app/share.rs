//! Share links: a lesson (see [`super::lesson`]) in a web address's fragment, so that a link
//! opens navlab's web page on exactly what was shown. The lesson's JSON is compressed (raw
//! deflate) and written in URL-safe base64 after `#lesson=`; the fragment never reaches a
//! server. A link is read with bounds on its length and on what it inflates to.

use super::NavlabApp;
use base64::Engine;
use std::io::{Read, Write};

/// What starts a share link's fragment (after the `#`).
pub const FRAGMENT_KEY: &str = "lesson=";

/// The longest link fragment written or read, in characters: well within what browsers
/// take, and short enough to paste into a chat.
pub const MAX_FRAGMENT_CHARS: usize = 100_000;

/// The most bytes a link's lesson inflates to (its mesh and map inside it).
pub const MAX_INFLATED_BYTES: u64 = 16 << 20;

/// What messages call a link.
pub const LINK_NAME: &str = "the share link";

/// Banner wording for a link that does not open.
pub const LINK_FAILED: (&str, &str) = (
    "Could not open the share link",
    "The built-in scene is shown instead.",
);

/// The fragment (without `#`) holding `lesson_json`, or why it is too long for a link.
pub fn encode(lesson_json: &str) -> Result<String, String> {
    let mut deflate = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    deflate
        .write_all(lesson_json.as_bytes())
        .map_err(|e| e.to_string())?;
    let packed = deflate.finish().map_err(|e| e.to_string())?;
    let fragment = format!(
        "{FRAGMENT_KEY}{}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(packed)
    );
    if fragment.len() > MAX_FRAGMENT_CHARS {
        return Err(format!(
            "what is shown is too large for a link ({} characters, the most is {MAX_FRAGMENT_CHARS}): \
             save a lesson file instead (File menu, Save lesson…)",
            fragment.len()
        ));
    }
    Ok(fragment)
}

/// The lesson JSON in a link's fragment (with or without its `#`), or why it is not one.
pub fn decode(fragment: &str) -> Result<Vec<u8>, String> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    if fragment.len() > MAX_FRAGMENT_CHARS {
        return Err(format!(
            "{LINK_NAME} is {} characters long; navlab's links are at most {MAX_FRAGMENT_CHARS}",
            fragment.len()
        ));
    }
    let Some(payload) = fragment.strip_prefix(FRAGMENT_KEY) else {
        return Err(format!(
            "{LINK_NAME} does not hold a lesson (its part after # should start with `{FRAGMENT_KEY}`)"
        ));
    };
    // Some programs add padding or turn the link's last characters into escapes.
    let payload = payload.trim_end_matches("%3D").trim_end_matches('=');
    let packed = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload)
        .map_err(|_| {
            format!("{LINK_NAME} is damaged (cut short or changed): it does not decode")
        })?;
    let mut json = Vec::new();
    flate2::read::DeflateDecoder::new(packed.as_slice())
        .take(MAX_INFLATED_BYTES + 1)
        .read_to_end(&mut json)
        .map_err(|_| {
            format!("{LINK_NAME} is damaged (cut short or changed): it does not inflate")
        })?;
    if json.len() as u64 > MAX_INFLATED_BYTES {
        return Err(format!(
            "{LINK_NAME} holds more than {}, the most navlab opens from a link",
            crate::input::bytes_in_words(MAX_INFLATED_BYTES)
        ));
    }
    Ok(json)
}

/// `address` (a web page's, any fragment dropped) with `fragment` after a `#`.
pub fn link(address: &str, fragment: &str) -> String {
    let page = address.split('#').next().unwrap_or(address);
    format!("{page}#{fragment}")
}

impl NavlabApp {
    /// The link to navlab's web page at `address` that opens what is shown.
    pub fn share_link(&self, address: &str) -> Result<String, String> {
        let lesson = self.lesson_in(None)?;
        let json = serde_json::to_string(&lesson).map_err(|e| e.to_string())?;
        Ok(link(address, &encode(&json)?))
    }

    /// Opens what a link's `fragment` holds; on failure what is shown stays and the error is
    /// returned (the caller shows it).
    pub fn open_share_fragment(&mut self, fragment: &str) -> Result<(), String> {
        let json = decode(fragment)?;
        self.open_lesson_bytes(&json, LINK_NAME, None)
    }

    /// Opens a link's `fragment`, or shows why not in the banner.
    pub fn open_share_fragment_reporting(&mut self, fragment: &str) {
        if let Err(message) = self.open_share_fragment(fragment) {
            self.fail(LINK_FAILED, message);
        }
    }

    /// The web address links point to: the page itself in a browser, the one set in the
    /// settings on a desktop.
    pub fn share_address(&self) -> Option<String> {
        self.page_address
            .clone()
            .or_else(|| self.settings.web_address.clone())
            .filter(|address| !address.trim().is_empty())
    }

    /// Copies the link to what is shown, or asks for the web page's address first when none
    /// is known.
    pub(super) fn copy_link(&mut self) {
        let Some(address) = self.share_address() else {
            self.windows.link_address = Some(String::new());
            return;
        };
        match self.share_link(&address) {
            Ok(link) => {
                self.notice = Some(format!(
                    "Copied a link to this view ({} characters){}",
                    link.len(),
                    self.pursuit_replay_caveat()
                ));
                self.to_clipboard = Some(link);
            }
            Err(message) => self.fail(("Could not make a link", "Nothing was copied."), message),
        }
    }

    /// The window asking where navlab's web page is published, shown before the first link
    /// made on a desktop.
    pub(super) fn link_address_ui(&mut self, ctx: &egui::Context) {
        let Some(typed) = &mut self.windows.link_address else {
            return;
        };
        let mut open = true;
        let mut copy = false;
        egui::Window::new("Copy link")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                ui.label(
                    "Links open navlab's web page. Where is it published? (the address of the \
                     folder where dist/ was put, e.g. https://example.org/navlab/)",
                );
                let label = ui.label("Web page address:");
                let field = ui
                    .add(egui::TextEdit::singleline(typed).desired_width(360.0))
                    .labelled_by(label.id);
                let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                let valid = typed.starts_with("https://") || typed.starts_with("http://");
                if !valid && !typed.is_empty() {
                    ui.colored_label(ui.visuals().warn_fg_color, "An http:// or https:// address");
                }
                copy = ui
                    .add_enabled(valid, egui::Button::new("Copy link"))
                    .on_hover_text("Remember this address and copy the link")
                    .clicked()
                    || (entered && valid);
            });
        if copy {
            self.settings.web_address = self.windows.link_address.take();
            self.copy_link();
        } else if !open {
            self.windows.link_address = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fragment_round_trips_and_replaces_the_page_fragment() {
        let json = r#"{"navlab_lesson":1,"text":"é and more"}"#;
        let fragment = encode(json).expect("short");
        assert!(fragment.starts_with(FRAGMENT_KEY));
        assert!(
            fragment
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "=-_".contains(c)),
            "URL-safe: {fragment}"
        );
        assert_eq!(
            decode(&format!("#{fragment}")).expect("decodes"),
            json.as_bytes()
        );
        assert_eq!(
            link("https://example.org/navlab/#old", &fragment),
            format!("https://example.org/navlab/#{fragment}")
        );
    }

    #[test]
    fn damaged_fragments_are_refused_with_a_reason() {
        let fragment = encode(r#"{"navlab_lesson":1}"#).expect("short");
        let cut = &fragment[..fragment.len() - 4];
        for (bad, says) in [
            ("", "does not hold a lesson"),
            ("#view=3", "does not hold a lesson"),
            ("#lesson=!!!", "does not decode"),
            ("#lesson=AAAA", "does not inflate"),
            (cut, "damaged"),
        ] {
            let error = decode(bad).expect_err(bad);
            assert!(error.contains(says), "{bad}: {error}");
        }
        let long = format!("{FRAGMENT_KEY}{}", "A".repeat(MAX_FRAGMENT_CHARS));
        assert!(decode(&long).expect_err("long").contains("characters long"));
    }

    #[test]
    fn a_link_that_inflates_past_the_bound_is_refused() {
        // Zeros compress about a thousand to one: a short link, a huge lesson.
        let mut deflate =
            flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
        let zeros = vec![b'0'; 1 << 20];
        for _ in 0..17 {
            deflate.write_all(&zeros).expect("in memory");
        }
        let packed = deflate.finish().expect("in memory");
        let fragment = format!(
            "{FRAGMENT_KEY}{}",
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(packed)
        );
        assert!(fragment.len() < MAX_FRAGMENT_CHARS);
        let error = decode(&fragment).expect_err("too large");
        assert!(error.contains("16 MiB"), "{error}");
    }

    #[test]
    fn too_much_for_a_link_is_refused_before_it_is_made() {
        // Text that does not compress: every character drawn from a fixed generator.
        let mut state = 1_u64;
        let noise: String = (0..200_000)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                char::from(b'a' + ((state >> 33) % 26) as u8)
            })
            .collect();
        let error = encode(&noise).expect_err("too long");
        assert!(error.contains("Save lesson"), "{error}");
    }
}
