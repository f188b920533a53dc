import NIOHTTP1
import Vapor

/// A ``TransferError`` answers as itself: `404` for an unknown account, `409` for too little money.
/// As an `AbortError` it passes through `ObjectionScopeMiddleware` unchanged, after rolling the
/// transaction back, to Vapor's `ErrorMiddleware`, which renders its status and reason.
extension TransferError: AbortError {
    public var status: HTTPResponseStatus {
        code == .unknownAccount ? .notFound : .conflict
    }

    public var reason: String { description }
}
