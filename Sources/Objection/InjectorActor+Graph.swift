/// The binding graph as a picture.
extension InjectorActor {
    /// A text format for ``graph(_:)``.
    public struct GraphFormat: Hashable, Sendable {
        fileprivate let name: String

        /// Graphviz DOT: `dot -Tsvg graph.dot > graph.svg`.
        public static let dot = GraphFormat(name: "dot")
        /// Mermaid, which renders in Markdown on GitHub and in many documentation tools.
        public static let mermaid = GraphFormat(name: "mermaid")
    }

    /// The bindings this injector sees and their declared dependencies, as a graph: one node per
    /// key, labelled with its scope; an edge per declared dependency. Dependencies nothing binds
    /// are drawn red and dashed, edges on a cycle red and bold. Closure providers hide their
    /// dependencies, so they appear without edges.
    ///
    /// ```swift
    /// print(injector.graph(.mermaid))   // paste into any Mermaid renderer
    /// ```
    ///
    /// - Parameter format: ``GraphFormat/dot`` or ``GraphFormat/mermaid``.
    /// - Returns: The graph's text.
    public nonisolated func graph(_ format: GraphFormat = .dot) -> String {
        let graph = BindingGraph(table: table)
        return format == .mermaid ? graph.mermaid() : graph.dot()
    }
}
