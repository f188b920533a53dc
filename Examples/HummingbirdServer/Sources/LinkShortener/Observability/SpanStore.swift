import Logging
import NIOConcurrencyHelpers
import ObjectionTracing
import Synchronization

/// The finished spans of an ``InProcessTracer``, kept within bounds: every span that ends before
/// the injector's start-up has ended (the start-up), then a window of the most recent ones.
///
/// When the start-up's span ends, the start-up's spans are written to the logger as a tree, and
/// whoever waits for them gets them.
final class SpanStore: Sendable {
    /// The name `TracingObserver` gives the span of a startup.
    static let startupOperation = TracingObserver.startupOperationName

    private struct State {
        /// The span of the start-up, once it has started.
        var startupSpanID: UInt64?
        /// The spans finished so far, while the start-up runs; all of them once it has ended.
        var startup: [FinishedSpan] = []
        var startupEnded = false
        /// Spans the start-up could not keep: more than its capacity.
        var droppedFromStartup = 0
        /// The most recent spans finished after the start-up, oldest first once rotated.
        var recent: [FinishedSpan] = []
        /// Where the next recent span goes once the window is full.
        var oldest = 0
        /// The callers of ``startupWhenEnded()`` waiting, by a number of their own.
        var waiters: [UInt64: CheckedContinuation<[FinishedSpan]?, Never>] = [:]
    }

    private let state = NIOLockedValueBox(State())
    private let ids = Atomic<UInt64>(0)
    private let logger: Logger
    private let startupCapacity: Int
    private let recentCapacity: Int

    init(logger: Logger, startupCapacity: Int, recentCapacity: Int) {
        self.logger = logger
        self.startupCapacity = max(0, startupCapacity)
        self.recentCapacity = max(0, recentCapacity)
    }

    /// A new identity for a span or a trace: 1, 2, 3, …
    func nextID() -> UInt64 {
        ids.add(1, ordering: .relaxed).newValue
    }

    /// Notes that the span `spanID`, named `operationName`, started: the first startup span is
    /// the start-up's.
    func started(_ operationName: String, spanID: UInt64) {
        guard operationName == Self.startupOperation else { return }
        state.withLockedValue { state in
            if state.startupSpanID == nil { state.startupSpanID = spanID }
        }
    }

    /// Keeps `span`; if it is the start-up's, logs the start-up and hands it to its waiters.
    func finished(_ span: FinishedSpan) {
        let ended: (spans: [FinishedSpan], dropped: Int, waiters: [CheckedContinuation<[FinishedSpan]?, Never>])? =
            state.withLockedValue { state in
                guard !state.startupEnded else {
                    keepRecent(span, in: &state)
                    return nil
                }
                if state.startup.count < startupCapacity {
                    state.startup.append(span)
                } else {
                    state.droppedFromStartup += 1
                }
                guard span.spanID == state.startupSpanID else { return nil }
                state.startupEnded = true
                let waiters = Array(state.waiters.values)
                state.waiters = [:]
                return (state.startup, state.droppedFromStartup, waiters)
            }
        guard let ended else { return }
        log(ended.spans, dropped: ended.dropped)
        for waiter in ended.waiters { waiter.resume(returning: ended.spans) }
    }

    /// The start-up's spans once it has ended, else `nil`.
    var startup: [FinishedSpan]? {
        state.withLockedValue { $0.startupEnded ? $0.startup : nil }
    }

    /// The start-up's spans, once it has ended: waits for that; `nil` if the caller's task is
    /// cancelled first.
    func startupWhenEnded() async -> [FinishedSpan]? {
        let waiter = nextID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Under the lock, so that either this sees the cancellation or the handler sees
                // the waiter.
                let answer: [FinishedSpan]?? = state.withLockedValue { state in
                    if state.startupEnded { return .some(state.startup) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiters[waiter] = continuation
                    return .none
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            state.withLockedValue { $0.waiters.removeValue(forKey: waiter) }?.resume(returning: nil)
        }
    }

    /// The most recent spans finished after the start-up, oldest first.
    var recent: [FinishedSpan] {
        state.withLockedValue { state in
            Array(state.recent[state.oldest...] + state.recent[..<state.oldest])
        }
    }

    private func keepRecent(_ span: FinishedSpan, in state: inout State) {
        if state.recent.count < recentCapacity {
            state.recent.append(span)
        } else if recentCapacity > 0 {
            state.recent[state.oldest] = span
            state.oldest = (state.oldest + 1) % recentCapacity
        }
    }

    /// Writes the start-up to the logger: a heading, then one line per span, as a tree.
    private func log(_ spans: [FinishedSpan], dropped: Int) {
        let traces = Set(spans.map(\.traceID)).count
        var heading = "Start-up trace: \(spans.count) spans in \(traces) traces"
        if dropped > 0 { heading += ", \(dropped) more not kept" }
        logger.info("\(heading)")
        for line in SpanTree(spans).lines {
            logger.info("\(line)")
        }
    }
}
