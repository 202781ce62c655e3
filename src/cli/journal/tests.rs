use super::fingerprint::{fingerprint, fingerprints, matches};
use super::format::Damaged;
use super::*;

#[test]
fn fingerprints_differ_for_different_bytes() {
    assert_eq!(fingerprint(b"fn a() { 1 }"), fingerprint(b"fn a() { 1 }"));
    assert_ne!(fingerprint(b"fn a() { 1 }"), fingerprint(b"fn a() { 2 }"));
    // SHA-256 of nothing, as `sha256sum` gives it.
    assert_eq!(
        fingerprint(b""),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    // A journal before format 5 recorded FNV-1a; it is still compared by it.
    assert!(matches("cbf29ce484222325", b""));
    assert!(!matches("cbf29ce484222325", b" "));
    assert!(matches(&fingerprint(b"x"), b"x"));
}

// Guards that a replay notices a script changed by one byte since the journal recorded it.
#[test]
fn a_script_changed_by_one_byte_is_told_changed() {
    let project = tempfile::tempdir().unwrap();
    let root = absolute(project.path());
    std::fs::write(root.join("rules.rhai"), "fn a() { 1 }").unwrap();
    let recorded = fingerprints([root.join("rules.rhai")], &root);
    let mut check = Check {
        json: false,
        path: root.join("j.jsonl"),
        root: root.clone(),
        warned: std::collections::BTreeSet::new(),
    };
    check.compare(&recorded, None);
    assert!(check.warned.is_empty(), "the same file is not changed");
    std::fs::write(root.join("rules.rhai"), "fn a() { 2 }").unwrap();
    check.compare(&recorded, None);
    assert!(check.warned.contains("rules.rhai"), "{:?}", check.warned);
}

#[test]
fn files_are_named_alike_however_they_were_named() {
    let project = tempfile::tempdir().unwrap();
    let root = absolute(project.path());
    std::fs::create_dir(root.join("scenarios")).unwrap();
    std::fs::write(root.join("scenarios/x.yaml"), "").unwrap();
    let inside = root.join("scenarios/../scenarios/x.yaml");
    assert_eq!(name_of(&inside, &root), "scenarios/x.yaml");
    let elsewhere = tempfile::tempdir().unwrap();
    let outside = absolute(elsewhere.path()).join("rule.rhai");
    std::fs::write(&outside, "").unwrap();
    let name = name_of(&outside, &root);
    assert_eq!(name, outside.display().to_string());
}

#[test]
fn reloads_and_readings_are_read_in_order_with_their_lines() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j.jsonl");
    let header =
        r#"{"journal":2,"project":"/p","scenario":null,"open":null,"seed":3,"scripts":{}}"#;
    let rest = [
        r#"{"line":":dice manual"}"#,
        r#"{"reload":["rules.rhai"]}"#,
        r#"{"scripts":{"rules.rhai":"00"}}"#,
        r#"{"line":"roll 1d6"}"#,
        r#"{"dice":"4"}"#,
        r#"{"line":"half a li"#,
    ];
    // Without a newline at the end: a session killed while writing its last line.
    std::fs::write(&path, format!("{header}\n{}", rest.join("\n"))).unwrap();
    let (_, items, damaged) = read(&path).unwrap();
    assert_eq!(damaged, None);
    assert_eq!(
        items,
        vec![
            Item::Line(":dice manual".into(), vec![]),
            Item::Reload(vec![PathBuf::from("rules.rhai")]),
            Item::Read {
                line: 4,
                scripts: [("rules.rhai".to_string(), "00".to_string())].into(),
            },
            Item::Line("roll 1d6".into(), vec!["4".into()]),
        ]
    );
    // The same half line in the middle is damage, named with its line.
    std::fs::write(&path, format!("{header}\n{}\n", rest.join("\n"))).unwrap();
    let (_, items, damaged) = read(&path).unwrap();
    assert_eq!(items.len(), 4);
    assert_eq!(
        damaged,
        Some(Damaged {
            line: 7,
            what: "it is cut short".into()
        })
    );
    std::fs::write(&path, format!("{header}\n{{\"nothing\":1}}\n")).unwrap();
    let (_, _, damaged) = read(&path).unwrap();
    assert_eq!(damaged.map(|d| d.line), Some(2));
    std::fs::write(&path, format!("{header}\n{{\"line\" 1}}\n{}\n", rest[0])).unwrap();
    let (_, _, damaged) = read(&path).unwrap();
    assert_eq!(
        damaged.map(|d| d.what),
        Some("it is garbled at character 9".into())
    );
    // A newer format.
    let newer = header.replace(":2,", &format!(":{},", FORMAT + 1));
    std::fs::write(&path, newer).unwrap();
    assert!(read(&path).is_err());
}
