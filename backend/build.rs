//! Rebuilds the backend when a shipped text changes or is added: `content::shipped` embeds
//! `backend/content/` with `include_dir`, which cargo would otherwise not watch for new files.

fn main() {
    println!("cargo:rerun-if-changed=content");
}
