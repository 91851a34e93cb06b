//! Animated GIFs of a range of steps, for slides and issue reports: the window's state set up
//! as `navlab open` sets it up, each step drawn with no window by the
//! [headless window](super::headless), the frames written as one looping GIF. The
//! same command gives the same file on every machine.

use super::headless::HeadlessWindow;
use super::{Launch, NavlabApp};
use std::path::PathBuf;

/// Most frames one animation holds.
pub const MAX_FRAMES: usize = 2_000;

/// Most pixels along either side of an animation's frames (a frame of 4096 × 4096 takes about
/// a third of a gigabyte and seconds to draw and encode).
pub const MAX_FRAME_SIDE: usize = 4_096;

/// Most pixels of all an animation's frames together: 585 frames of 1280 × 800, 2,000 of
/// 640 × 400 — about a minute of drawing and encoding.
pub const MAX_TOTAL_PIXELS: u64 = 600_000_000;

/// What to record.
#[derive(Debug, Clone, PartialEq)]
pub struct AnimationPlan {
    /// Where to write the GIF.
    pub path: PathBuf,
    /// The first and last step shown (both included; the last is held to the last step).
    pub steps: (usize, usize),
    /// Frames per second (1 to 50).
    pub fps: f64,
    /// The window's size in pixels.
    pub size: [usize; 2],
    /// Only the canvas, not the whole window.
    pub canvas_only: bool,
}

impl AnimationPlan {
    /// How many frames it records.
    pub fn frames(&self) -> usize {
        self.steps.1.saturating_sub(self.steps.0) + 1
    }

    /// Why it cannot be recorded (past [`MAX_FRAMES`], [`MAX_FRAME_SIDE`] or
    /// [`MAX_TOTAL_PIXELS`]), with the frames' size `size` (the window's, or the canvas's).
    pub fn problem(&self, [w, h]: [usize; 2]) -> Option<String> {
        let frames = self.frames();
        let pixels = (frames as u64)
            .saturating_mul(w as u64)
            .saturating_mul(h as u64);
        let big = |n: u64| crate::words::thousands(usize::try_from(n).unwrap_or(usize::MAX));
        if frames > MAX_FRAMES {
            Some(format!(
                "{} frames; an animation holds at most {}",
                big(frames as u64),
                big(MAX_FRAMES as u64)
            ))
        } else if w > MAX_FRAME_SIDE || h > MAX_FRAME_SIDE {
            Some(format!(
                "frames of {w} × {h} pixels; an animation's are at most {MAX_FRAME_SIDE} on a side"
            ))
        } else if pixels > MAX_TOTAL_PIXELS {
            Some(format!(
                "{} frames of {w} × {h} are {} pixels; an animation holds at most {} (fewer \
                 steps or a smaller size)",
                big(frames as u64),
                big(pixels),
                big(MAX_TOTAL_PIXELS)
            ))
        } else {
            None
        }
    }
}

/// What was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnimationReport {
    /// Frames written (one per step).
    pub frames: usize,
    /// Their size in pixels.
    pub size: [usize; 2],
}

/// `A..B` as a step range (A ≤ B, at most [`MAX_FRAMES`] steps).
pub fn parse_step_range(text: &str) -> Result<(usize, usize), String> {
    let (a, b) = text
        .split_once("..")
        .ok_or_else(|| format!("`{text}` is not a step range: write A..B, e.g. 0..40"))?;
    let number = |s: &str| {
        s.trim()
            .parse::<usize>()
            .map_err(|_| format!("`{s}` is not a step number"))
    };
    let (a, b) = (number(a)?, number(b)?);
    if a > b {
        return Err(format!("the range {a}..{b} runs backwards"));
    }
    if b - a + 1 > MAX_FRAMES {
        return Err(format!("{a}..{b} is more than {MAX_FRAMES} steps"));
    }
    Ok((a, b))
}

/// Sets the window's state up as `launch` says, then draws and writes the steps `plan` asks
/// for. Errors name what failed (a file that did not open, the GIF that was not written).
pub fn record_gif(launch: &Launch, plan: &AnimationPlan) -> Result<AnimationReport, String> {
    if let Some(problem) = plan.problem(plan.size) {
        return Err(format!("{}: {problem}", crate::input::shown(&plan.path)));
    }
    let mut app = super::headless::launched_app(launch, &mut |warning| {
        eprintln!(
            "{}",
            crate::input::printable(&format!("warning: {warning}"))
        );
    })?;
    let theme = super::headless::picture_theme(launch);
    let (bytes, report) = record(&mut app, plan, theme)?;
    crate::atomic::write_atomically(&plan.path, &bytes)?;
    Ok(report)
}

/// [`record_gif`] for the worker thread of an [`ExportJob`]: `done` counts the frames
/// recorded; once `cancelled` is set, it stops before the next frame and writes nothing.
fn record_gif_counting(
    launch: &Launch,
    plan: &AnimationPlan,
    done: &std::sync::atomic::AtomicUsize,
    cancelled: &std::sync::atomic::AtomicBool,
) -> Result<AnimationReport, String> {
    use std::sync::atomic::Ordering;
    let stop = || "cancelled".to_string();
    let mut app = super::headless::launched_app(launch, &mut |_| {})?;
    let theme = super::headless::picture_theme(launch);
    let mut recorder = Recorder::new(&mut app, plan.clone(), theme);
    while recorder.record_next(&mut app)? {
        done.store(recorder.progress().0, Ordering::Relaxed);
        if cancelled.load(Ordering::Relaxed) {
            return Err(stop());
        }
    }
    let (bytes, report) = recorder.finish()?;
    if cancelled.load(Ordering::Relaxed) {
        return Err(stop());
    }
    crate::atomic::write_atomically(&plan.path, &bytes)?;
    Ok(report)
}

/// Draws the steps `plan` asks for of what `app` shows, in `theme`, and encodes them: the
/// GIF's bytes (not written anywhere yet) and what was recorded.
pub fn record(
    app: &mut NavlabApp,
    plan: &AnimationPlan,
    theme: egui::ThemePreference,
) -> Result<(Vec<u8>, AnimationReport), String> {
    let mut recorder = Recorder::new(app, plan.clone(), theme);
    while recorder.record_next(app)? {}
    recorder.finish()
}

/// A GIF recorded one step at a time, so that the page that records it keeps drawing between
/// frames (in a browser there is no thread to record on).
pub struct Recorder {
    plan: AnimationPlan,
    window: HeadlessWindow,
    /// The step drawn next, and the last one.
    next: usize,
    last: usize,
    /// Hundredths of a second each frame shows.
    delay: u16,
    gif: Option<gif::Encoder<Vec<u8>>>,
    frames: usize,
    /// The last frame's pixels: each later frame holds only the rectangle that changed, drawn
    /// over what is shown (a GIF of a search is mostly the same from step to step).
    previous: Option<Vec<u8>>,
    frame_size: [usize; 2],
}

impl Recorder {
    /// Ready to record what `app` shows as `plan` asks, in `theme` (the layout settled).
    pub fn new(app: &mut NavlabApp, plan: AnimationPlan, theme: egui::ThemePreference) -> Self {
        let mut window = HeadlessWindow::new(plan.size, theme);
        // The layout settles over the first frames (panel widths, fitted views).
        for _ in 0..super::headless::SETTLING_FRAMES {
            window.frame(app);
        }
        let (_, len) = app.scenes.get_mut(app.settings.scene).step_counts();
        let (first, last) = (plan.steps.0.min(len), plan.steps.1.min(len));
        let delay = (100.0 / plan.fps.clamp(1.0, 50.0)).round() as u16;
        Self {
            plan,
            window,
            next: first,
            last,
            delay,
            gif: None,
            frames: 0,
            previous: None,
            frame_size: [0, 0],
        }
    }

    /// Frames recorded so far, and how many there will be.
    pub fn progress(&self) -> (usize, usize) {
        let first = self.next - self.frames;
        (self.frames, self.last + 1 - first.min(self.last + 1))
    }

    /// Draws and encodes the next step; false once every step is recorded.
    pub fn record_next(&mut self, app: &mut NavlabApp) -> Result<bool, String> {
        if self.next > self.last {
            return Ok(false);
        }
        let plan = &self.plan;
        let [w, h] = plan.size;
        let kind = app.settings.scene;
        app.scenes.get_mut(kind).show_step(self.next);
        self.next += 1;
        let image = self.window.picture(app);
        let area = plan
            .canvas_only
            .then(|| app.scenes.get_mut(kind).canvas_area())
            .flatten()
            .unwrap_or(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(w as f32, h as f32),
            ));
        let (x0, y0) = (area.min.x.max(0.0) as usize, area.min.y.max(0.0) as usize);
        let (x1, y1) = (
            (area.max.x.max(0.0) as usize).min(w),
            (area.max.y.max(0.0) as usize).min(h),
        );
        let (fw, fh) = (x1.saturating_sub(x0), y1.saturating_sub(y0));
        if fw == 0 || fh == 0 || fw > usize::from(u16::MAX) || fh > usize::from(u16::MAX) {
            return Err(format!(
                "{}: nothing to draw at that size",
                crate::input::shown(&plan.path)
            ));
        }
        let mut rgba = Vec::with_capacity(fw * fh * 4);
        for y in y0..y1 {
            for pixel in &image.pixels[y * w + x0..y * w + x1] {
                rgba.extend_from_slice(&pixel.to_srgba_unmultiplied());
            }
        }
        let encoder = match &mut self.gif {
            Some(encoder) => encoder,
            None => {
                let mut encoder = gif::Encoder::new(Vec::new(), fw as u16, fh as u16, &[])
                    .map_err(|e| e.to_string())?;
                encoder
                    .set_repeat(gif::Repeat::Infinite)
                    .map_err(|e| e.to_string())?;
                self.frame_size = [fw, fh];
                self.gif.insert(encoder)
            }
        };
        if [fw, fh] != self.frame_size {
            return Err(format!(
                "{}: the canvas changed size while recording",
                crate::input::shown(&plan.path)
            ));
        }
        let changed = self
            .previous
            .as_deref()
            .map(|before| changed_rectangle(before, &rgba, fw, fh));
        let before = self.previous.replace(rgba.clone());
        // (left, top, width, height) of what this frame holds.
        let (left, top, cw, ch) = match changed {
            None => (0, 0, fw, fh),
            Some(Some(rect)) => rect,
            // Nothing changed: one pixel, the same as before.
            Some(None) => (0, 0, 1, 1),
        };
        // Within it, a pixel that did not change is transparent: the one before shows.
        let mut patch = Vec::with_capacity(cw * ch * 4);
        for y in top..top + ch {
            for x in left..left + cw {
                let k = (y * fw + x) * 4;
                let pixel = &rgba[k..k + 4];
                let same = before.as_deref().and_then(|b| b.get(k..k + 4)) == Some(pixel);
                patch.extend_from_slice(if same { &[0, 0, 0, 0] } else { pixel });
            }
        }
        let mut picture = gif::Frame::from_rgba_speed(cw as u16, ch as u16, &mut patch, 10);
        picture.left = left as u16;
        picture.top = top as u16;
        picture.dispose = gif::DisposalMethod::Keep;
        picture.delay = self.delay;
        encoder
            .write_frame(&picture)
            .map_err(|e| format!("{}: {e}", crate::input::shown(&plan.path)))?;
        self.frames += 1;
        Ok(self.next <= self.last)
    }

    /// The GIF's bytes and what was recorded (once: the recorder is empty after).
    pub fn finish(&mut self) -> Result<(Vec<u8>, AnimationReport), String> {
        let path = crate::input::shown(&self.plan.path);
        let bytes = self
            .gif
            .take()
            .ok_or_else(|| format!("{path}: no step to record"))?
            .into_inner()
            .map_err(|e| format!("{path}: {e}"))?;
        Ok((
            bytes,
            AnimationReport {
                frames: self.frames,
                size: self.frame_size,
            },
        ))
    }
}

/// The smallest rectangle (left, top, width, height) holding every pixel that differs between
/// two RGBA images `w` × `h`; `None` when they are the same.
fn changed_rectangle(
    before: &[u8],
    after: &[u8],
    w: usize,
    h: usize,
) -> Option<(usize, usize, usize, usize)> {
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for y in 0..h {
        for x in 0..w {
            let k = (y * w + x) * 4;
            if before.get(k..k + 4) != after.get(k..k + 4) {
                x0 = x0.min(x);
                y0 = y0.min(y);
                x1 = x1.max(x + 1);
                y1 = y1.max(y + 1);
            }
        }
    }
    (x0 < x1).then(|| (x0, y0, x1 - x0, y1 - y0))
}

/// The Export animation window's fields.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExportForm {
    /// The first step.
    pub from: usize,
    /// The last step.
    pub to: usize,
    /// Frames per second.
    pub fps: u8,
    /// Only the canvas.
    pub canvas_only: bool,
    /// The window's size when the form was opened, in pixels (the frames' size).
    pub size: [usize; 2],
}

impl ExportForm {
    /// What to record, into `path`.
    pub fn plan(&self, path: PathBuf) -> AnimationPlan {
        AnimationPlan {
            path,
            steps: (self.from, self.to),
            fps: f64::from(self.fps),
            size: self.size,
            canvas_only: self.canvas_only,
        }
    }
}

/// An animation being recorded: on a worker thread, or (in a browser) here, one frame each
/// time the window draws.
pub struct ExportJob {
    /// Where it goes.
    pub path: PathBuf,
    work: ExportWork,
}

enum ExportWork {
    Thread {
        answer: std::sync::mpsc::Receiver<Result<AnimationReport, String>>,
        /// Frames recorded so far, and how many there will be.
        done: std::sync::Arc<std::sync::atomic::AtomicUsize>,
        total: usize,
        /// Set to stop the recording.
        cancelled: std::sync::Arc<std::sync::atomic::AtomicBool>,
    },
    Here {
        /// The window whose steps are drawn (not the one shown).
        window: Box<NavlabApp>,
        recorder: Box<Recorder>,
    },
}

impl ExportJob {
    /// Records `lesson` (what is shown, as a lesson made for `folder`, an empty folder of its
    /// own) as `plan` asks, on a worker thread.
    pub fn start(
        folder: tempfile::TempDir,
        lesson: &super::lesson::Lesson,
        plan: AnimationPlan,
    ) -> Result<Self, String> {
        // Read back by a window of the recording's own.
        let lesson_path = folder.path().join("export.navlab");
        let text = serde_json::to_string(lesson).map_err(|e| e.to_string())?;
        crate::atomic::write_atomically(&lesson_path, text.as_bytes())?;
        let launch = Launch {
            actions: vec![super::LaunchAction::Open(lesson_path)],
            size: None,
            theme: None,
        };
        let (send, answer) = std::sync::mpsc::channel();
        let path = plan.path.clone();
        let total = plan.frames();
        let done = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let cancelled = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (counter, stop) = (done.clone(), cancelled.clone());
        std::thread::Builder::new()
            .name("navlab animation".into())
            .spawn(move || {
                let result = record_gif_counting(&launch, &plan, &counter, &stop);
                drop(folder);
                let _ = send.send(result);
            })
            .map_err(|e| e.to_string())?;
        Ok(Self {
            path,
            work: ExportWork::Thread {
                answer,
                done,
                total,
                cancelled,
            },
        })
    }

    /// Stops the recording: nothing is written. (A worker stops before its next frame.)
    pub fn cancel(self) {
        if let ExportWork::Thread { cancelled, .. } = &self.work {
            cancelled.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// Records what `window` shows as `plan` asks, a frame at each [`poll`](Self::poll), and
    /// writes it with the window's file writer (in a browser, a download).
    pub fn here(mut window: NavlabApp, plan: AnimationPlan, theme: egui::ThemePreference) -> Self {
        let path = plan.path.clone();
        let recorder = Recorder::new(&mut window, plan, theme);
        Self {
            path,
            work: ExportWork::Here {
                window: Box::new(window),
                recorder: Box::new(recorder),
            },
        }
    }

    /// Frames recorded so far, and how many there will be.
    pub fn progress(&self) -> (usize, usize) {
        match &self.work {
            ExportWork::Thread { done, total, .. } => {
                let done = done.load(std::sync::atomic::Ordering::Relaxed);
                (done.min(*total), *total)
            }
            ExportWork::Here { recorder, .. } => recorder.progress(),
        }
    }

    /// The answer, once the recording is over (recording the next frame first when it is
    /// recorded here).
    pub fn poll(&mut self) -> Option<Result<AnimationReport, String>> {
        match &mut self.work {
            ExportWork::Thread { answer, .. } => match answer.try_recv() {
                Ok(result) => Some(result),
                Err(std::sync::mpsc::TryRecvError::Empty) => None,
                Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    Some(Err("the recording stopped".to_string()))
                }
            },
            ExportWork::Here { window, recorder } => match recorder.record_next(window) {
                Ok(true) => None,
                Err(message) => Some(Err(message)),
                Ok(false) => Some(recorder.finish().and_then(|(bytes, report)| {
                    super::files::write_file(&self.path, &bytes)?;
                    Ok(report)
                })),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_changed_rectangle_holds_every_changed_pixel() {
        let before = vec![0u8; 4 * 5 * 4];
        let mut after = before.clone();
        assert_eq!(changed_rectangle(&before, &after, 5, 4), None);
        after[(5 + 1) * 4] = 9; // (1, 1)
        after[(3 * 5 + 3) * 4 + 2] = 9; // (3, 3)
        assert_eq!(changed_rectangle(&before, &after, 5, 4), Some((1, 1, 3, 3)));
    }

    #[test]
    fn step_ranges_read_as_written_and_refuse_what_is_not_one() {
        assert_eq!(parse_step_range("0..40"), Ok((0, 40)));
        assert_eq!(parse_step_range(" 5 .. 5 "), Ok((5, 5)));
        assert!(parse_step_range("40..0").is_err());
        assert!(parse_step_range("0-40").is_err());
        assert!(parse_step_range("a..b").is_err());
        assert!(parse_step_range("0..5000").is_err());
    }
}
