/// When an RPC's deadline passes: the moment it arrived plus the client's `grpc-timeout`, which
/// grpc-swift enforces by cancelling the RPC's handle, as a client's cancellation and a graceful
/// shutdown also do. The interceptor reads it to tell a deadline from a shutdown.
struct RPCDeadline: Sendable {
    let instant: ContinuousClock.Instant

    /// The deadline `timeout` sets from `start`; `nil` for a value that is not 1 to 8 digits and
    /// a unit (`H`, `M`, `S`, `m`, `u`, `n`), as the gRPC over HTTP/2 protocol spells it.
    ///
    /// ```swift
    /// RPCDeadline(timeout: "250m", from: .now)   // 250 ms from now
    /// ```
    init?(timeout: String, from start: ContinuousClock.Instant) {
        guard let unit = timeout.last, (2...9).contains(timeout.utf8.count),
            let amount = Int64(timeout.dropLast()), amount >= 0
        else { return nil }
        let duration: Duration
        switch unit {
        case "H": duration = .seconds(amount * 3_600)
        case "M": duration = .seconds(amount * 60)
        case "S": duration = .seconds(amount)
        case "m": duration = .milliseconds(amount)
        case "u": duration = .microseconds(amount)
        case "n": duration = .nanoseconds(amount)
        default: return nil
        }
        instant = start + duration
    }

    /// Whether it has passed.
    var hasPassed: Bool { ContinuousClock.now >= instant }
}
