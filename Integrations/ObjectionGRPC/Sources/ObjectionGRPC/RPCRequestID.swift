// Re-exported: the request id and the injector are this module's vocabulary too, so that a file
// importing only the integration can use them, `MemberImportVisibility` on or off.
@_exported import Objection

/// The id of one RPC (``Objection/RequestIdentifier``, one type for every integration): the
/// caller's `x-request-id` metadata when it sent a usable one, else a new one.
/// ``ObjectionScopeInterceptor`` binds it in each RPC's scope and sends it back in the response's
/// initial metadata.
///
/// ```swift
/// binder.bind(RPCRequestID.self).suppliedByScope()
/// let id = try await InjectorActor.currentScope?.get(RPCRequestID.self)
/// ```
public typealias RPCRequestID = RequestIdentifier

extension RequestIdentifier {
    /// The metadata key an RPC's id travels under, both ways.
    ///
    /// ```swift
    /// metadata.replaceOrAddString(id.value, forKey: RPCRequestID.metadataKey)
    /// ```
    public static let metadataKey = "x-request-id"
}
