/// Text a site may send that must be shown escaped, never interpreted (issue 24 item 8): control,
/// format and line-separator characters, each with what the person must see in its place
/// (SignerCore's `DisplayText.visible`). Read by the SignerCore and Gateway display tests.
public enum DisplayVectors {
    /// (what a site sends, what the person must see in its place)
    public static let nasty: [(String, String)] = [
        ("a\nb", #"a\nb"#),
        ("vote\n! Verified: 0 ICX leaves your account", #"vote\n! Verified: 0 ICX leaves your account"#),
        ("x\u{2028}y", #"x\u{2028}y"#),
        ("x\u{2029}y", #"x\u{2029}y"#),
        ("x\u{200B}y", #"x\u{200B}y"#),
        ("\u{202E}lave", #"\u{202E}lave"#),
        ("\u{2066}iso\u{2069}", #"\u{2066}iso\u{2069}"#),
        ("esc\u{1B}[2J", #"esc\u{001B}[2J"#),
        ("cr\r\ttab", #"cr\r\ttab"#),
        ("nel\u{85}c1\u{9B}", #"nel\u{0085}c1\u{009B}"#),
        ("bom\u{FEFF}shy\u{AD}", #"bom\u{FEFF}shy\u{00AD}"#),
        ("tag\u{E0041}", #"tag\u{E0041}"#),
        ("zwj\u{200D}alm\u{61C}", #"zwj\u{200D}alm\u{061C}"#),
        ("del\u{7F}", #"del\u{007F}"#),
    ]
}
