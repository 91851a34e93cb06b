//! Pictures of the window for slides and bug reports: **Save picture…** (F12) writes a PNG,
//! **Copy picture** (Ctrl+Shift+C) puts it on the clipboard — the window as shown, once the menu
//! that asked for it has closed.

use super::files::Picked;
use super::path_prompt::PromptPurpose;
use super::{NavlabApp, SAVE_FAILED};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What a picture is taken for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PictureUse {
    /// Written to a PNG file the user names.
    Save,
    /// Put on the clipboard.
    Copy,
}

/// Frames drawn after the request before the window is captured: the frame in which a menu
/// item was clicked still shows the menu.
const FRAMES_BEFORE_CAPTURE: u64 = 2;

/// A request whose picture has not come back in this long is given up (a window that is not
/// painted, say minimised, never answers), so that the keys are not dead from then on.
const GIVE_UP_AFTER: Duration = Duration::from_secs(2);

/// Where the window's pixels arrive (the callback runs when the frame has been painted).
type Slot = Arc<Mutex<Option<Arc<egui::ColorImage>>>>;

/// Takes one picture of the window at a time.
#[derive(Default)]
pub struct PictureTaker {
    /// Asked for: its use and the frame it was asked in (known from the first frame after).
    asked: Option<(PictureUse, Option<u64>)>,
    /// Requested from the window: its use, where the pixels arrive, and when it was asked.
    arriving: Option<(PictureUse, Slot, web_time::Instant)>,
}

impl PictureTaker {
    /// Asks for a picture; false (and nothing asked) while another is being taken, unless that
    /// one has not come back for two seconds (a window that is not painted never answers).
    pub fn ask(&mut self, purpose: PictureUse) -> bool {
        if self
            .arriving
            .as_ref()
            .is_some_and(|(_, _, since)| since.elapsed() >= GIVE_UP_AFTER)
        {
            self.arriving = None;
        }
        if self.is_busy() {
            return false;
        }
        self.asked = Some((purpose, None));
        true
    }

    /// True from the request until the picture is handed over.
    pub fn is_busy(&self) -> bool {
        self.asked.is_some() || self.arriving.is_some()
    }

    /// Called after drawing each pass: captures the window once the menu is gone, and hands
    /// over a picture that has arrived. Frames are counted, not passes (egui may draw a frame
    /// twice).
    pub fn frame(&mut self, ctx: &egui::Context) -> Option<(PictureUse, Arc<egui::ColorImage>)> {
        let now = ctx.cumulative_frame_nr();
        if let Some((purpose, asked_in)) = &mut self.asked {
            let asked_in = *asked_in.get_or_insert(now);
            if now >= asked_in + FRAMES_BEFORE_CAPTURE {
                let slot = Slot::default();
                let (sink, waker) = (Arc::clone(&slot), ctx.clone());
                ctx.request_screenshot(move |image| {
                    if let Ok(mut arrived) = sink.lock() {
                        *arrived = Some(image);
                    }
                    waker.request_repaint();
                });
                self.arriving = Some((*purpose, slot, crate::clock::now()));
                self.asked = None;
            } else {
                ctx.request_repaint();
            }
        }
        let (purpose, slot, _) = self.arriving.as_ref()?;
        let image = slot.lock().ok()?.take()?;
        let purpose = *purpose;
        self.arriving = None;
        Some((purpose, image))
    }
}

impl NavlabApp {
    /// Hands a picture that has arrived to the clipboard or to the save dialog.
    pub(super) fn take_pictures(&mut self, ctx: &egui::Context) {
        let Some((purpose, image)) = self.pictures.frame(ctx) else {
            return;
        };
        let [width, height] = image.size;
        match purpose {
            PictureUse::Copy => {
                ctx.copy_image((*image).clone());
                self.notice = Some(format!(
                    "Copied a picture of the window ({width} × {height} pixels)"
                ));
            }
            PictureUse::Save => {
                let suggested = self.scene().picture_name(&self.map);
                match self.dialogs.save_picture(&suggested) {
                    Picked::Path(path) => {
                        self.save_picture_to(&image, path);
                    }
                    Picked::NoDialog => {
                        self.windows.picture_to_save = Some(image);
                        let start = self.working_folder().join(&suggested);
                        self.prompt_for_path(PromptPurpose::SavePicture, start, true);
                    }
                    Picked::Cancelled => {}
                }
            }
        }
    }

    /// Writes `image` to `path` as PNG, atomically; true when it was written.
    pub(super) fn save_picture_to(&mut self, image: &egui::ColorImage, path: PathBuf) -> bool {
        if super::files::not_png(&path) {
            self.fail(
                SAVE_FAILED,
                format!(
                    "{}: pictures are written as PNG; end the name with .png",
                    crate::input::shown(&path)
                ),
            );
            return false;
        }
        match super::screenshot::write_png(&path, image) {
            Ok(()) => {
                let [width, height] = image.size;
                self.notice = Some(format!(
                    "Saved a picture of the window ({width} × {height}) as {}",
                    crate::input::shown(&path)
                ));
                true
            }
            Err(message) => {
                self.fail(SAVE_FAILED, message);
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs one frame of `taker`; the screenshot requests it sent.
    fn frame(
        ctx: &egui::Context,
        taker: &mut PictureTaker,
    ) -> (
        Option<(PictureUse, Arc<egui::ColorImage>)>,
        Vec<egui::ScreenshotCallback>,
    ) {
        let mut handed = None;
        let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
            handed = taker.frame(ui.ctx());
        });
        output.textures_delta.clear();
        let requests = output
            .viewport_output
            .values()
            .flat_map(|viewport| viewport.commands.iter())
            .filter_map(|command| match command {
                egui::ViewportCommand::Screenshot(callback) => Some(callback.clone()),
                _ => None,
            })
            .collect();
        (handed, requests)
    }

    /// The window is captured after the menu's frames, once; the picture is handed over the
    /// frame after it arrives, with its use; one picture at a time.
    #[test]
    fn a_picture_is_captured_after_the_menu_closes_and_handed_over_once() {
        let ctx = egui::Context::default();
        let mut taker = PictureTaker::default();
        assert!(taker.ask(PictureUse::Copy));
        assert!(!taker.ask(PictureUse::Save), "one at a time");
        for _ in 0..FRAMES_BEFORE_CAPTURE {
            let (handed, requests) = frame(&ctx, &mut taker);
            assert!(handed.is_none() && requests.is_empty());
        }
        let (handed, requests) = frame(&ctx, &mut taker);
        assert!(handed.is_none());
        let [request] = <[_; 1]>::try_from(requests).expect("one request");
        let (nothing_yet, none_again) = frame(&ctx, &mut taker);
        assert!(nothing_yet.is_none() && none_again.is_empty(), "asked once");
        assert!(taker.is_busy());
        let image = egui::ColorImage::filled([3, 2], egui::Color32::RED);
        request.complete(Arc::new(image.clone()));
        let (handed, _) = frame(&ctx, &mut taker);
        let (purpose, picture) = handed.expect("handed over");
        assert_eq!(purpose, PictureUse::Copy);
        assert_eq!(*picture, image);
        assert!(!taker.is_busy());
        assert!(frame(&ctx, &mut taker).0.is_none(), "once");
        assert!(taker.ask(PictureUse::Save));
    }

    /// A picture that never comes back does not block the next one for good.
    #[test]
    fn a_picture_that_never_comes_back_is_given_up() {
        let ctx = egui::Context::default();
        let mut taker = PictureTaker::default();
        assert!(taker.ask(PictureUse::Save));
        let requested = (0..=FRAMES_BEFORE_CAPTURE).any(|_| !frame(&ctx, &mut taker).1.is_empty());
        assert!(requested);
        assert!(!taker.ask(PictureUse::Copy), "still waiting for it");
        let Some((_, _, since)) = &mut taker.arriving else {
            panic!("requested")
        };
        *since = crate::clock::now()
            .checked_sub(GIVE_UP_AFTER)
            .expect("a clock that far back");
        assert!(taker.ask(PictureUse::Copy), "given up");
        assert_eq!(
            taker.asked.map(|(purpose, _)| purpose),
            Some(PictureUse::Copy)
        );
    }
}
