/// The declared dependency graph of a table and its ancestors, for ``InjectorActor/graph(_:)``.
struct BindingGraph {
    struct Edge {
        let from: Int
        let to: Int
        var isOnCycle = false
    }

    /// The keys, in the order they are drawn; bound keys first, then missing ones.
    private(set) var keys: [BindingKey] = []
    /// Each key's scope, `instance` for a value bound with `toInstance`, `provided` for a
    /// `Factory`, `Lazy` or just-in-time type, `nil` when unbound.
    private(set) var scopes: [String?] = []
    private(set) var edges: [Edge] = []

    init(table: BindingTable) {
        var bindings: [Binding] = []
        var seen: Set<BindingKey> = []
        var current: BindingTable? = table
        while let level = current {
            for binding in level.bindings where seen.insert(binding.key).inserted { bindings.append(binding) }
            current = level.parent
        }
        var position: [BindingKey: Int] = [:]
        for binding in bindings {
            position[binding.key] = keys.count
            keys.append(binding.key)
            scopes.append(binding.producer.isInstance ? "instance" : binding.scope.description)
        }
        for (from, binding) in bindings.enumerated() {
            for dependency in binding.knownDependencies + binding.contributions.all.map(\.key) {
                let to =
                    position[dependency]
                    ?? {
                        position[dependency] = keys.count
                        keys.append(dependency)
                        // A handle or a just-in-time type is provided, not missing.
                        scopes.append(table.providesWithoutBinding(dependency) ? "provided" : nil)
                        return keys.count - 1
                    }()
                edges.append(Edge(from: from, to: to))
            }
        }
        markCycles()
    }

    /// Marks the edges inside strongly connected components (Tarjan), and self-loops.
    ///
    /// The depth-first walk keeps its own stack of (node, next outgoing edge), so that a chain as
    /// long as the user's configuration cannot exhaust the thread's stack.
    private mutating func markCycles() {
        var index = 0
        var indices = [Int?](repeating: nil, count: keys.count)
        var lowLinks = [Int](repeating: 0, count: keys.count)
        var onStack = [Bool](repeating: false, count: keys.count)
        var members: [Int] = []
        var component = [Int](repeating: -1, count: keys.count)
        var components = 0
        let outgoing = Dictionary(grouping: edges.indices, by: { edges[$0].from })

        func open(_ node: Int, on walk: inout [(node: Int, edges: [Int], next: Int)]) {
            indices[node] = index
            lowLinks[node] = index
            index += 1
            members.append(node)
            onStack[node] = true
            walk.append((node, outgoing[node] ?? [], 0))
        }
        var walk: [(node: Int, edges: [Int], next: Int)] = []
        for root in keys.indices where indices[root] == nil {
            open(root, on: &walk)
            while let (node, nodeEdges, next) = walk.last {
                if next < nodeEdges.count {
                    walk[walk.count - 1].next += 1
                    let target = edges[nodeEdges[next]].to
                    if indices[target] == nil {
                        open(target, on: &walk)
                    } else if onStack[target], let targetIndex = indices[target] {
                        lowLinks[node] = min(lowLinks[node], targetIndex)
                    }
                    continue
                }
                walk.removeLast()
                if let caller = walk.last?.node { lowLinks[caller] = min(lowLinks[caller], lowLinks[node]) }
                guard lowLinks[node] == indices[node] else { continue }
                while let member = members.popLast() {
                    onStack[member] = false
                    component[member] = components
                    if member == node { break }
                }
                components += 1
            }
        }
        var sizes = [Int](repeating: 0, count: components)
        for node in keys.indices where component[node] >= 0 { sizes[component[node]] += 1 }
        for edge in edges.indices {
            let (from, to) = (edges[edge].from, edges[edge].to)
            edges[edge].isOnCycle = from == to || (component[from] == component[to] && sizes[component[from]] > 1)
        }
    }

    /// The node's key and scope, on two lines joined by `lineBreak`, without double quotes.
    private func label(_ node: Int, lineBreak: String) -> String {
        let text = "\(keys[node])\(lineBreak)\(scopes[node] ?? "missing")"
        guard text.utf8.contains(UInt8(ascii: "\"")) else { return text }
        return String(text.map { $0 == "\"" ? "'" : $0 })
    }

    func dot() -> String {
        var lines = ["digraph Objection {", "  node [shape=box, fontname=\"Helvetica\"];"]
        for node in keys.indices {
            let style = scopes[node] == nil ? ", color=red, style=dashed" : ""
            lines.append("  n\(node) [label=\"\(label(node, lineBreak: "\\n"))\"\(style)];")
        }
        for edge in edges {
            let style =
                scopes[edge.to] == nil ? " [color=red, style=dashed]" : edge.isOnCycle ? " [color=red, penwidth=2]" : ""
            lines.append("  n\(edge.from) -> n\(edge.to)\(style);")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    func mermaid() -> String {
        var lines = ["graph TD"]
        for node in keys.indices {
            lines.append("  n\(node)[\"\(label(node, lineBreak: "<br/>"))\"]")
        }
        var linkStyles: [String] = []
        for (number, edge) in edges.enumerated() {
            let missing = scopes[edge.to] == nil
            lines.append("  n\(edge.from) \(missing ? "-.->" : "-->") n\(edge.to)")
            if missing || edge.isOnCycle { linkStyles.append("  linkStyle \(number) stroke:red,stroke-width:2px") }
        }
        for node in keys.indices where scopes[node] == nil {
            lines.append("  style n\(node) stroke:red,stroke-dasharray: 5 5")
        }
        return (lines + linkStyles).joined(separator: "\n")
    }
}
