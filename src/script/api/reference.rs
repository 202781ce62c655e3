//! The scripting API reference, `docs/api.md`, made from the engine's metadata.
