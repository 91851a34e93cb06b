//! Polyanya `.mesh` files, [format version 2 and 3](https://github.com/vleue/polyanya): 2D convex
//! polygons (triangulated here) with coordinates taken as the plane's x and y. Neighbour lists
//! in the file are not trusted: adjacency is rebuilt from shared vertices.

use super::{BuildOptions, LoadError, NavMesh, Plane};
use std::path::Path;

/// Loads a `.mesh` file.
pub fn load(path: &Path) -> Result<NavMesh, LoadError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| LoadError::Io {
        file: file.clone(),
        source,
    })?;
    parse(&bytes, &file)
}

/// A whitespace-separated token and the line it is on.
struct Tokens<'a> {
    file: &'a str,
    items: Vec<(&'a str, usize)>,
    next: usize,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str, file: &'a str) -> Self {
        let items = text
            .lines()
            .enumerate()
            .flat_map(|(i, line)| line.split_whitespace().map(move |t| (t, i + 1)))
            .collect();
        Self {
            file,
            items,
            next: 0,
        }
    }

    fn error(&self, line: usize, message: String) -> LoadError {
        LoadError::Syntax {
            file: self.file.to_string(),
            line,
            message,
        }
    }

    fn last_line(&self) -> usize {
        self.items.last().map_or(1, |&(_, l)| l)
    }

    fn word(&mut self, what: &str) -> Result<(&'a str, usize), LoadError> {
        match self.items.get(self.next) {
            Some(&item) => {
                self.next += 1;
                Ok(item)
            }
            None => Err(self.error(
                self.last_line(),
                format!("the file ends where {what} was expected"),
            )),
        }
    }

    fn parse<T: std::str::FromStr>(&mut self, what: &str) -> Result<(T, usize), LoadError> {
        let (token, line) = self.word(what)?;
        token
            .parse()
            .map(|v| (v, line))
            .map_err(|_| self.error(line, format!("expected {what}, found `{token}`")))
    }

    fn count(&mut self, what: &str, limit: usize) -> Result<usize, LoadError> {
        let (n, line) = self.parse::<usize>(what)?;
        if n > limit {
            return Err(self.error(line, format!("{what} {n} is implausibly large")));
        }
        Ok(n)
    }

    fn coordinate(&mut self, what: &str) -> Result<f64, LoadError> {
        let (v, line) = self.parse::<f64>(what)?;
        if !v.is_finite() {
            return Err(self.error(line, format!("{what} is not a finite number")));
        }
        Ok(v)
    }
}

/// Parses `.mesh` text; `file` names it in error messages.
pub fn parse(bytes: &[u8], file: &str) -> Result<NavMesh, LoadError> {
    let text = std::str::from_utf8(bytes).map_err(|e| LoadError::Syntax {
        file: file.to_string(),
        line: bytes
            .get(..e.valid_up_to())
            .map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count())
            + 1,
        message: "not a text file".to_string(),
    })?;
    let mut tokens = Tokens::new(text, file);
    let (magic, line) = tokens.word("the word `mesh`")?;
    if magic != "mesh" {
        return Err(tokens.error(
            line,
            format!("expected the word `mesh`, found `{magic}`: not a Polyanya mesh"),
        ));
    }
    let (version, line) = tokens.parse::<u32>("the format version")?;
    // No real mesh comes close to this; it stops a corrupt count from allocating gigabytes.
    let limit = text.len();
    let mut positions = Vec::new();
    let mut polygons = Vec::new();
    match version {
        2 => {
            let vertex_count = tokens.count("the vertex count", limit)?;
            let polygon_count = tokens.count("the polygon count", limit)?;
            for _ in 0..vertex_count {
                let x = tokens.coordinate("a vertex x")?;
                let y = tokens.coordinate("a vertex y")?;
                let n = tokens.count("a vertex's neighbour count", limit)?;
                for _ in 0..n {
                    tokens.parse::<i64>("a neighbouring polygon")?;
                }
                positions.push([x, y, 0.0]);
            }
            for _ in 0..polygon_count {
                let n = tokens.count("a polygon's vertex count", limit)?;
                let mut poly = Vec::with_capacity(n);
                for _ in 0..n {
                    poly.push(vertex_index(&mut tokens, vertex_count, 0)?);
                }
                for _ in 0..n {
                    tokens.parse::<i64>("a neighbouring polygon")?;
                }
                polygons.push(poly);
            }
        }
        3 => {
            let vertex_count = tokens.count("the vertex count", limit)?;
            let face_count = tokens.count("the face count", limit)?;
            for _ in 0..vertex_count {
                let x = tokens.coordinate("a vertex x")?;
                let y = tokens.coordinate("a vertex y")?;
                positions.push([x, y, 0.0]);
            }
            for _ in 0..face_count {
                let (traversable, _) = tokens.parse::<i64>("a face's traversable flag")?;
                let n = tokens.count("a face's vertex count", limit)?;
                let mut poly = Vec::with_capacity(n);
                for _ in 0..n {
                    poly.push(vertex_index(&mut tokens, vertex_count, 1)?);
                }
                for _ in 0..n {
                    tokens.parse::<i64>("a neighbouring face")?;
                }
                if traversable == 1 {
                    polygons.push(poly);
                }
            }
        }
        other => {
            return Err(tokens.error(
                line,
                format!("mesh format version {other} is not supported (2 and 3 are)"),
            ));
        }
    }
    if let Some(&(extra, line)) = tokens.items.get(tokens.next) {
        return Err(tokens.error(line, format!("unexpected `{extra}` after the last polygon")));
    }
    NavMesh::from_polygons(
        &positions,
        &polygons,
        BuildOptions {
            plane: Plane::Xy,
            ..BuildOptions::default()
        },
    )
    .map_err(|source| LoadError::Build {
        file: file.to_string(),
        source,
    })
}

fn vertex_index(tokens: &mut Tokens, count: usize, first: usize) -> Result<usize, LoadError> {
    let (index, line) = tokens.parse::<usize>("a vertex index")?;
    match index.checked_sub(first) {
        Some(i) if i < count => Ok(i),
        _ => Err(tokens.error(
            line,
            format!(
                "vertex index {index} is out of range ({first}..{} allowed)",
                count + first
            ),
        )),
    }
}
