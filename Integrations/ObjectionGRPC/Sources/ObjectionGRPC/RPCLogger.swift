import Logging

/// The interceptor's logger and the RPC it logs for: the method and request id become metadata
/// only when something is logged, so that an RPC that logs nothing copies no metadata dictionary.
///
/// ```swift
/// let logger = RPCLogger(base, method: "echo.Echo/Get", requestID: id.value)
/// logger.withMetadata.error("RPC failed; answered internalError")
/// ```
struct RPCLogger: Sendable {
    private let base: Logger
    private let method: String
    private let requestID: String

    init(_ base: Logger, method: String, requestID: String) {
        self.base = base
        self.method = method
        self.requestID = requestID
    }

    /// The logger with the RPC's `rpc.method` and `request-id` metadata.
    var withMetadata: Logger {
        var logger = base
        logger[metadataKey: "rpc.method"] = .string(method)
        logger[metadataKey: "request-id"] = .string(requestID)
        return logger
    }
}
