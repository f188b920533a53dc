import Logging

/// The middleware's logger for one operation: what it logs carries the operation id, added when
/// something is logged — not to a copy of the logger per request, whose metadata would be written
/// for every request and read for almost none.
struct OperationLog: Sendable {
    let logger: Logger
    let operationID: String

    func error(_ message: Logger.Message, metadata: Logger.Metadata = [:]) {
        logger.error(message, metadata: metadata.merging(["openapi.operation": .string(operationID)]) { $1 })
    }

    func notice(_ message: Logger.Message) {
        logger.notice(message, metadata: ["openapi.operation": .string(operationID)])
    }
}
