//! Small levels made in the tests: boxes and ramps, faces wound as Recast reads them (a top
//! faces up).

/// A level's vertices (Y up) and faces.
#[derive(Debug, Clone, Default)]
pub struct Level {
    pub positions: Vec<[f64; 3]>,
    pub faces: Vec<Vec<usize>>,
}

impl Level {
    fn quad(&mut self, corners: [[f64; 3]; 4]) {
        let first = self.positions.len();
        self.positions.extend(corners);
        self.faces.push((first..first + 4).collect());
    }

    /// A box from `min` to `max` (x, y, z): its top faces up, its sides out, its bottom down.
    pub fn add_box(&mut self, min: [f64; 3], max: [f64; 3]) -> &mut Self {
        let [x0, y0, z0] = min;
        let [x1, y1, z1] = max;
        self.quad([[x0, y1, z0], [x0, y1, z1], [x1, y1, z1], [x1, y1, z0]]);
        self.quad([[x0, y0, z0], [x1, y0, z0], [x1, y0, z1], [x0, y0, z1]]);
        self.quad([[x0, y0, z0], [x0, y0, z1], [x0, y1, z1], [x0, y1, z0]]);
        self.quad([[x1, y0, z0], [x1, y1, z0], [x1, y1, z1], [x1, y0, z1]]);
        self.quad([[x0, y0, z0], [x0, y1, z0], [x1, y1, z0], [x1, y0, z0]]);
        self.quad([[x0, y0, z1], [x1, y0, z1], [x1, y1, z1], [x0, y1, z1]]);
        self
    }

    /// A ramp: a sloped quad over x from `x0` to `x1` and z from `z0` to `z1`, rising from
    /// `y0` at x0 by `degrees` (its top faces up; no sides).
    pub fn add_ramp(
        &mut self,
        [x0, z0]: [f64; 2],
        [x1, z1]: [f64; 2],
        y0: f64,
        degrees: f64,
    ) -> &mut Self {
        let y1 = y0 + (x1 - x0) * degrees.to_radians().tan();
        self.quad([[x0, y0, z0], [x0, y0, z1], [x1, y1, z1], [x1, y1, z0]]);
        self
    }

    /// The level as Wavefront OBJ text.
    pub fn obj(&self) -> String {
        let mut text = String::new();
        for [x, y, z] in &self.positions {
            text.push_str(&format!("v {x} {y} {z}\n"));
        }
        for face in &self.faces {
            let corners: Vec<String> = face.iter().map(|i| (i + 1).to_string()).collect();
            text.push_str(&format!("f {}\n", corners.join(" ")));
        }
        text
    }
}
