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
        Self.draw(BindingGraph(table: table), format)
    }

    /// The graph `modules` declare, drawn without building an injector, and without checking it:
    /// the way to see a configuration that ``init(modules:stage:startup:observer:maxResolutionDepth:)`` rejects
    /// for a missing dependency or a cycle.
    ///
    /// ```swift
    /// print(try InjectorActor.graph(of: [AppModule()], .mermaid))
    /// ```
    ///
    /// - Parameters:
    ///   - modules: The configuration, applied in order.
    ///   - format: ``GraphFormat/dot`` or ``GraphFormat/mermaid``.
    /// - Returns: The graph's text.
    /// - Throws: ``InjectionError/Code/invalidConfiguration`` for problems that leave no graph to
    ///   draw, such as a key bound twice in one module.
    public static func graph(of modules: [any Module], _ format: GraphFormat = .dot) throws(InjectionError) -> String {
        let table = try BindingTable.build(modules: modules, checksCaptives: false, validatesGraph: false)
        return draw(BindingGraph(table: table), format)
    }

    private static func draw(_ graph: BindingGraph, _ format: GraphFormat) -> String {
        format == .mermaid ? graph.mermaid() : graph.dot()
    }
}
