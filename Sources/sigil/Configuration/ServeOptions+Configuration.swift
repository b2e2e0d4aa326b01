import SigilConfiguration

extension ServeOptions {
    /// What the command line gave, per row of `ServeConfiguration.options` (nil: not given). The
    /// resolver refuses to run when this and the table disagree, so a new row cannot be forgotten here.
    var commandLineValues: [String: ConfigurationValue?] {
        [
            "config": config.map(ConfigurationValue.string),
            "port": port.map(ConfigurationValue.string),
            "ui-port": uiPort.map(ConfigurationValue.string),
            "host": host.map(ConfigurationValue.string),
            "tls-cert": tls.certificate.map(ConfigurationValue.string),
            "tls-key": tls.key.map(ConfigurationValue.string),
            "public-dir": publicDir.map(ConfigurationValue.string),
            "log-level": logLevel.map(ConfigurationValue.string),
            "log-format": logFormat.map(ConfigurationValue.string),
            "token-output": tokenOutput.map(ConfigurationValue.string),
            "metrics-token-file": metricsTokenFile.map(ConfigurationValue.string),
            "ic-url": icURL.map(ConfigurationValue.string),
            "dev": dev.map(ConfigurationValue.boolean),
            "data-dir": dataDir.map(ConfigurationValue.string),
            "password-file": password.passwordFile.map(ConfigurationValue.string),
            "auto-approve": autoApprove.map(ConfigurationValue.boolean),
            "approve": approve.map(ConfigurationValue.string),
            "client": Self.list(clients),
            "allowed-host": Self.list(allowedHosts),
            "public-url": Self.list(publicURLs),
            "public-ui-url": Self.list(publicUIURLs),
            "approval-timeout": approvalTimeout.map(ConfigurationValue.string),
            "deny-host": Self.list(deniedHosts),
            "icon-rpc": iconRPC.map(ConfigurationValue.string),
            "icon-nid": iconNID.map(ConfigurationValue.string),
            "eth-rpc": Self.list(ethRPC),
            "icon-blind-signing": Self.list(iconBlindSigning),
            "journal": journal.map(ConfigurationValue.boolean),
            "journal-mirror": journalMirror.map(ConfigurationValue.string),
            "journal-shown-limit": journalShownLimit.map(ConfigurationValue.string),
            "journal-checkpoint-interval": journalCheckpointInterval.map(ConfigurationValue.string),
            "journal-sync": journalSync.map(ConfigurationValue.string),
        ]
    }

    /// A repeatable option: not given when it never appears.
    private static func list(_ items: [String]) -> ConfigurationValue? {
        items.isEmpty ? nil : .list(items)
    }
}
