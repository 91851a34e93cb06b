//! The browser build's shell around the window: starts it on the page's canvas, gives it the
//! files a user picks or drops (as bytes), saves through downloads, keeps unsaved edits in the
//! browser's storage, opens share links (also one pasted into the same tab), and tells the page
//! what is shown, for tests (the canvas's `data-navlab-status` attribute, JSON).
//!
//! A browser page has one thread here: the jobs the desktop runs on worker threads (large
//! files, searches of large meshes, builds, partitions) run at once, in the frame that asks.

use super::files::{FileDialogs, Picked, Upload, UploadPurpose};
use super::{AppSettings, NavlabApp, recovery};
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;
use wasm_bindgen::JsCast;

/// The id of the canvas the page gives the window.
pub const CANVAS_ID: &str = "navlab_canvas";

/// The storage key of the edits not saved yet.
const UNSAVED_KEY: &str = "navlab-unsaved-work";

/// The most bytes read of a file picked in the browser: the largest limit of any kind (a trace).
const MAX_PICKED_BYTES: u64 = crate::input::MAX_TRACE_BYTES;

/// Starts the window on the page's canvas; a failure is written on the page.
pub fn start() {
    wasm_bindgen_futures::spawn_local(async {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let Some(canvas) = document
            .get_element_by_id(CANVAS_ID)
            .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok())
        else {
            log(&format!(
                "navlab: the page has no canvas with id {CANVAS_ID}"
            ));
            return;
        };
        let shown = canvas.clone();
        let started = eframe::WebRunner::new()
            .start(
                canvas,
                eframe::WebOptions::default(),
                Box::new(move |cc| Ok(Box::new(WebApp::new(cc, shown)))),
            )
            .await;
        let note = document.get_element_by_id("navlab_loading");
        match (started, note) {
            (Ok(()), Some(note)) => note.remove(),
            (Err(error), note) => {
                let message = format!("navlab could not start: {error:?}");
                if let Some(note) = note {
                    note.set_text_content(Some(&message));
                }
                log(&message);
            }
            (Ok(()), None) => {}
        }
    });
}

/// Writes `message` to the browser's console.
fn log(message: &str) {
    web_sys::console::error_1(&message.into());
}

/// The page's address (with its fragment).
fn page_address() -> Option<String> {
    web_sys::window().and_then(|w| w.location().href().ok())
}

/// The page address's fragment (with `#`; empty when there is none).
fn page_fragment() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Milliseconds since the page began to load.
fn page_time_ms() -> Option<f64> {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
}

/// Offers `bytes` as a download named `name` (a save in the browser).
pub fn download(name: &str, bytes: &[u8]) -> Result<(), String> {
    let fail = |what: &str| format!("{name}: cannot save: the browser refused to {what}");
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| fail("give the page"))?;
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/octet-stream");
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options)
        .map_err(|_| fail("hold the file"))?;
    let url =
        web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| fail("hold the file"))?;
    let link = document
        .create_element("a")
        .ok()
        .and_then(|e| e.dyn_into::<web_sys::HtmlAnchorElement>().ok())
        .ok_or_else(|| fail("make a link"))?;
    link.set_href(&url);
    link.set_download(name);
    link.click();
    // The download has begun; the browser lets the address go once nothing uses it.
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// The bytes of a file the user gave the page; a file over every limit is not read into
/// memory at all.
async fn read_file(file: &web_sys::File) -> Result<Vec<u8>, String> {
    if file.size() > MAX_PICKED_BYTES as f64 {
        return Err(format!(
            "larger than {}, the most navlab reads of any file",
            crate::input::bytes_in_words(MAX_PICKED_BYTES)
        ));
    }
    let buffer = wasm_bindgen_futures::JsFuture::from(file.array_buffer())
        .await
        .map_err(|_| "the browser could not read it".to_string())?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Files picked in the browser's file picker, waiting for the next frame.
type Inbox = Rc<RefCell<Vec<Upload>>>;

/// The browser's file picker for opening (the file arrives later, as bytes) and downloads
/// for saving (named as suggested).
struct BrowserDialogs {
    inbox: Inbox,
    ctx: egui::Context,
}

impl BrowserDialogs {
    /// Shows the picker; answers "nothing chosen" now, and the file comes through
    /// [`FileDialogs::uploads`] when the user picks one.
    fn pick(&self, filters: &[(&str, &[&str])], purpose: UploadPurpose) -> Picked {
        let mut dialog = rfd::AsyncFileDialog::new();
        for (name, extensions) in filters {
            dialog = dialog.add_filter(*name, extensions);
        }
        let (inbox, ctx) = (self.inbox.clone(), self.ctx.clone());
        wasm_bindgen_futures::spawn_local(async move {
            let Some(file) = dialog.pick_file().await else {
                return;
            };
            let name = file.file_name();
            let bytes = read_file(file.inner()).await;
            inbox.borrow_mut().push(Upload {
                name,
                bytes,
                purpose,
            });
            ctx.request_repaint();
        });
        Picked::Cancelled
    }
}

impl FileDialogs for BrowserDialogs {
    fn pick_mesh(&mut self) -> Picked {
        self.pick(
            &[
                ("Navigation meshes and lessons", &["obj", "mesh", "navlab"]),
                ("Tile maps", &["map", "json", "tmx", "tmj"]),
            ],
            UploadPurpose::Open,
        )
    }

    fn pick_map(&mut self) -> Picked {
        self.pick(
            &[
                ("Tile maps", &["map", "json", "tmx", "tmj"]),
                ("Navigation meshes and lessons", &["obj", "mesh", "navlab"]),
            ],
            UploadPurpose::Open,
        )
    }

    fn pick_trace(&mut self) -> Picked {
        self.pick(
            &[("Posthoc trace", &["json", "yaml"])],
            UploadPurpose::Trace,
        )
    }

    fn save_map(&mut self, suggested: &str) -> Picked {
        Picked::Path(PathBuf::from(suggested))
    }

    fn save_mesh(&mut self, suggested: &str) -> Picked {
        Picked::Path(PathBuf::from(suggested))
    }

    fn save_picture(&mut self, suggested: &str) -> Picked {
        Picked::Path(PathBuf::from(suggested))
    }

    fn save_lesson(&mut self, suggested: &str) -> Picked {
        Picked::Path(PathBuf::from(suggested))
    }

    fn save_crowd_run(&mut self, suggested: &str) -> Picked {
        Picked::Path(PathBuf::from(suggested))
    }

    fn save_animation(&mut self, suggested: &str) -> Picked {
        Picked::Path(PathBuf::from(suggested))
    }

    fn read_dropped(&mut self, file: &egui::DroppedFileHandle) -> bool {
        let (file, inbox, ctx) = (file.clone(), self.inbox.clone(), self.ctx.clone());
        wasm_bindgen_futures::spawn_local(async move {
            let bytes = match file.web_file() {
                Some(web_file) => read_file(web_file).await,
                None => file.bytes_async().await,
            };
            inbox.borrow_mut().push(Upload {
                name: file.path().display().to_string(),
                bytes,
                purpose: UploadPurpose::Open,
            });
            ctx.request_repaint();
        });
        true
    }

    fn uploads(&mut self) -> Vec<Upload> {
        std::mem::take(&mut *self.inbox.borrow_mut())
    }
}

/// The page's address's query (with `?`; empty when there is none).
fn page_query() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// For the browser test, on a page opened with `?widgets`: every widget that can be clicked
/// (from AccessKit's tree, which egui makes only when asked), and clicks the test asks for
/// by a widget's id on the canvas's `data-navlab-click` attribute, given to egui as AccessKit
/// click requests (as egui_kittest clicks: wherever the widget is, even scrolled out of sight).
#[derive(Default)]
struct WidgetProbe {
    /// (id, role, label, bounds in points) of each enabled widget that takes a click, at the
    /// last frame.
    widgets: Vec<(u64, String, String, [f64; 4])>,
    /// Clicks for the next frame.
    clicks: Vec<u64>,
}

impl egui::Plugin for WidgetProbe {
    fn debug_name(&self) -> &'static str {
        "navlab widget probe"
    }

    fn input_hook(&mut self, _ctx: &egui::Context, input: &mut egui::RawInput) {
        use egui::accesskit::{Action, ActionRequest, NodeId, TreeId};
        for id in self.clicks.drain(..) {
            input
                .events
                .push(egui::Event::AccessKitActionRequest(ActionRequest {
                    action: Action::Click,
                    target_tree: TreeId::ROOT,
                    target_node: NodeId(id),
                    data: None,
                }));
        }
    }

    fn output_hook(&mut self, _ctx: &egui::Context, output: &mut egui::FullOutput) {
        use egui::accesskit::Action;
        if let Some(update) = &output.platform_output.accesskit_update {
            self.widgets = update
                .nodes
                .iter()
                .filter(|(_, node)| node.supports_action(Action::Click) && !node.is_disabled())
                .map(|(id, node)| {
                    let bounds = node.bounds().map_or([0.0; 4], |b| [b.x0, b.y0, b.x1, b.y1]);
                    (
                        id.0,
                        format!("{:?}", node.role()),
                        node.label().unwrap_or_default().to_string(),
                        bounds,
                    )
                })
                .collect();
        }
    }
}

/// The window in a browser page.
struct WebApp {
    app: NavlabApp,
    canvas: web_sys::HtmlCanvasElement,
    /// The fragment last opened (a link pasted into the tab changes only it).
    fragment: String,
    frames: u64,
    first_frame_ms: Option<f64>,
    /// The status last written on the canvas.
    status: String,
    /// Widgets listed and clicked for the browser test (`?widgets`).
    probing: bool,
}

impl WebApp {
    fn new(cc: &eframe::CreationContext<'_>, canvas: web_sys::HtmlCanvasElement) -> Self {
        let mut settings: AppSettings = cc
            .storage
            .and_then(|s| eframe::get_value(s, eframe::APP_KEY))
            .unwrap_or_default();
        // Files are not reopened by name in a browser.
        settings.last_file = None;
        settings.last_map = None;
        settings.recent = Default::default();
        let dialogs = BrowserDialogs {
            inbox: Inbox::default(),
            ctx: cc.egui_ctx.clone(),
        };
        let mut app = NavlabApp::new(settings, Box::new(dialogs));
        app.page_address = page_address();
        let fragment = page_fragment();
        if fragment.len() > 1 {
            app.open_share_fragment_reporting(&fragment);
        } else if let Some(kept) = cc.storage.and_then(|s| s.get_string(UNSAVED_KEY))
            && !kept.is_empty()
        {
            match recovery::parse(kept.as_bytes(), "the edits kept in this browser") {
                Ok(recovered) => {
                    app.show_recovered(recovered);
                    app.notice =
                        Some("Unsaved edits kept in this browser reopened; not saved yet".into());
                }
                Err(message) => log(&message),
            }
        }
        let probing = page_query().contains("widgets");
        if probing {
            cc.egui_ctx.enable_accesskit();
            cc.egui_ctx.add_plugin(WidgetProbe::default());
        }
        Self {
            app,
            canvas,
            fragment,
            frames: 0,
            first_frame_ms: None,
            status: String::new(),
            probing,
        }
    }

    /// Takes the clicks the browser test asked for on the canvas (widget ids, separated by
    /// commas) for the next frame.
    fn take_clicks(&mut self, ctx: &egui::Context) {
        let Some(asked) = self.canvas.get_attribute("data-navlab-click") else {
            return;
        };
        let _ = self.canvas.remove_attribute("data-navlab-click");
        let ids: Vec<u64> = asked
            .split(',')
            .filter_map(|id| id.trim().parse().ok())
            .collect();
        ctx.with_plugin(|probe: &mut WidgetProbe| probe.clicks.extend(ids));
        ctx.request_repaint();
    }

    /// Writes what is shown on the canvas's `data-navlab-status` attribute, when it changed.
    fn report(&mut self, ctx: &egui::Context, frame_ms: Option<f32>) {
        let app = &self.app;
        let scene = app.scene();
        let navmesh = &app.scenes.navmesh;
        let grid = &app.scenes.tile_map;
        let corners = |r: egui::Rect| [r.min.x, r.min.y, r.max.x, r.max.y];
        let canvas = scene.canvas_area().map(corners);
        let tabs: serde_json::Map<String, serde_json::Value> = app
            .scene_tabs
            .iter()
            .map(|(kind, rect)| (format!("{kind:?}"), serde_json::json!(corners(*rect))))
            .collect();
        let status = serde_json::json!({
            "frames": self.frames,
            "first_frame_ms": self.first_frame_ms,
            "frame_ms": frame_ms.map(|s| s * 1000.0),
            "scene": app.settings.scene,
            "step": scene.shown_step(),
            "steps": scene.step_counts().1,
            "playing": app.is_playing(),
            "error": app.error(),
            "notice": app.notice,
            "canvas": canvas,
            "tabs": tabs,
            "pixels_per_point": ctx.pixels_per_point(),
            "navmesh": {
                "mesh": navmesh.origin.source.name(),
                "triangles": navmesh.mesh().triangles().len(),
                "start": [navmesh.query.start.x, navmesh.query.start.y],
                "goal": [navmesh.query.goal.x, navmesh.query.goal.y],
            },
            "tile_map": {
                "size": [app.map.map.width(), app.map.map.height()],
                "start": [grid.start.0, grid.start.1],
                "goal": [grid.goal.0, grid.goal.1],
            },
            "level": {
                "level": app.scenes.level.level().name,
                "polygons": app.scenes.level.built().map(|b| b.counts.polygons),
                "build_ms": app.scenes.level.built().map(|b| b.counts.milliseconds),
                "why": app.scenes.level.why().map(|why| why.sentence()),
                "error": app.scenes.level.error(),
            },
            // Ids as text: JavaScript's numbers hold 53 bits, an id 64.
            "widgets": self.probing.then(|| {
                ctx.with_plugin(|probe: &mut WidgetProbe| {
                    probe
                        .widgets
                        .iter()
                        .map(|(id, role, label, bounds)| {
                            serde_json::json!([id.to_string(), role, label, bounds])
                        })
                        .collect::<Vec<_>>()
                })
            }),
        })
        .to_string();
        if status != self.status {
            let _ = self.canvas.set_attribute("data-navlab-status", &status);
            self.status = status;
        }
    }
}

impl eframe::App for WebApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let fragment = page_fragment();
        if fragment != self.fragment {
            self.fragment = fragment;
            if self.fragment.len() > 1 {
                let fragment = self.fragment.clone();
                self.app.open_share_fragment_reporting(&fragment);
            }
        }
        if self.probing {
            self.take_clicks(ui.ctx());
            // The test waits for frames and gives no other input (a key or a pointer move
            // would be taken by menus and tooltips too).
            ui.ctx().request_repaint();
        }
        self.app.frame_ui(ui);
        self.frames += 1;
        if self.first_frame_ms.is_none() {
            self.first_frame_ms = page_time_ms();
        }
        self.report(ui.ctx(), frame.info().cpu_usage);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::App::save(&mut self.app, storage);
        let kept = self
            .app
            .unsaved_work()
            .and_then(|work| recovery::work_text(&work).ok())
            .unwrap_or_default();
        storage.set_string(UNSAVED_KEY, kept);
    }

    fn auto_save_interval(&self) -> std::time::Duration {
        eframe::App::auto_save_interval(&self.app)
    }

    fn persist_egui_memory(&self) -> bool {
        eframe::App::persist_egui_memory(&self.app)
    }
}
