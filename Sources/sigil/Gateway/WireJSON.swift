import Gateway

/// The gateway's JSON value (ScaleCodec has its own `JSONValue` for display).
typealias WireJSON = Gateway.JSONValue
