import Synchronization

/// A scoped instance that says whether it has been disposed when read: what a streamed response
/// reads in each chunk, to show that its request's scope outlives the stream.
///
/// ```swift
/// binder.bind(DisposalProbe.self).to { _ in DisposalProbe() }.inScope(.scoped)
///     .onDispose { probe, _ in probe.dispose() }
/// // in each chunk of the response:
/// try await writer.write(ByteBuffer(string: probe.read()))   // "alive", never "DISPOSED"
/// ```
public final class DisposalProbe: Sendable {
    private let disposed = Atomic<Bool>(false)

    /// A probe not yet disposed.
    public init() {}

    /// `"alive"` until ``dispose()``, `"DISPOSED"` after.
    public func read() -> String { disposed.load(ordering: .acquiring) ? "DISPOSED" : "alive" }

    /// Marks the probe disposed.
    public func dispose() { disposed.store(true, ordering: .releasing) }
}
