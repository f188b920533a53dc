/// A response body that ran short of, or past, the length its head declared: a server integration
/// ends the request's scope failed with it, so that a truncated response never commits its work.
///
/// ```swift
/// if written != declared {
///     await scope.endAfterFailure(ResponseLengthMismatch(declared: declared)) { _ in }
/// }
/// ```
public struct ResponseLengthMismatch: Error, CustomStringConvertible {
    /// The length the response's head declared, in bytes.
    ///
    /// ```swift
    /// ResponseLengthMismatch(declared: 10).declared   // 10
    /// ```
    public let declared: Int64

    /// A mismatch with the `declared` length.
    ///
    /// ```swift
    /// throw ResponseLengthMismatch(declared: 10)
    /// ```
    public init(declared: Int64) {
        self.declared = declared
    }

    /// "The response body did not have the 10 bytes it declared".
    ///
    /// ```swift
    /// print(ResponseLengthMismatch(declared: 10))
    /// ```
    public var description: String { "The response body did not have the \(declared) bytes it declared" }
}
