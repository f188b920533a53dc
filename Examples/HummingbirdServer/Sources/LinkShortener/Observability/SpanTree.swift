/// Finished spans arranged as trees: each root, then the spans nested under it, in the order
/// they started.
///
/// ```swift
/// for line in SpanTree(spans).lines { logger.info("\(line)") }
/// // objection.startup 13.064 ms singletons=2
/// //   construct Metrics 0.192 ms key=Metrics scope=singleton
/// //   construct LinkDatabase 12.514 ms key=LinkDatabase scope=singleton
/// ```
public struct SpanTree: Sendable {
    /// The spans in tree order, each with its depth: 0 for a root.
    public let ordered: [(depth: Int, span: FinishedSpan)]

    /// Arranges `spans`. A span whose parent is not among them counts as a root.
    ///
    /// - Parameter spans: The spans, in any order.
    public init(_ spans: [FinishedSpan]) {
        let present = Set(spans.map(\.spanID))
        var children: [UInt64: [FinishedSpan]] = [:]
        var roots: [FinishedSpan] = []
        for span in spans {
            if let parent = span.parentSpanID, present.contains(parent) {
                children[parent, default: []].append(span)
            } else {
                roots.append(span)
            }
        }
        var ordered: [(depth: Int, span: FinishedSpan)] = []
        // Depth first, without recursion; a stack pops the last pushed, so push in reverse.
        var stack = Self.byStart(roots).reversed().map { (depth: 0, span: $0) }
        while let next = stack.popLast() {
            ordered.append(next)
            let below = Self.byStart(children[next.span.spanID] ?? [])
            stack.append(contentsOf: below.reversed().map { (depth: next.depth + 1, span: $0) })
        }
        self.ordered = ordered
    }

    /// One line per span: indented two spaces per level, its name, its duration in
    /// milliseconds, its key attributes, and `error` if it failed.
    public var lines: [String] {
        ordered.map { depth, span in
            var line =
                String(repeating: "  ", count: depth) + span.operationName + " "
                + Self.milliseconds(span.durationMicroseconds)
            if let key = span.attribute("objection.key") { line += " key=\(key)" }
            if let scope = span.attribute("objection.scope") { line += " scope=\(scope)" }
            if let singletons = span.attribute("objection.singletons") { line += " singletons=\(singletons)" }
            if span.failed { line += " error" }
            return line
        }
    }

    private static func byStart(_ spans: [FinishedSpan]) -> [FinishedSpan] {
        spans.sorted { ($0.startNanoseconds, $0.spanID) < ($1.startNanoseconds, $1.spanID) }
    }

    /// `microseconds` as milliseconds with three decimals: `13.064 ms`.
    static func milliseconds(_ microseconds: Int64) -> String {
        let fraction = String(microseconds % 1000)
        return "\(microseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) ms"
    }
}
