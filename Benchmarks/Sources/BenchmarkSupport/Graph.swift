/// The object graphs every contender builds: the same `final class`es for all of them.
///
/// The small graph is `Service -> A(D), B(E, F), C(G)`: eight objects.
public final class D: Sendable { public init() {} }
public final class E: Sendable { public init() {} }
public final class F: Sendable { public init() {} }
public final class G: Sendable { public init() {} }

public final class A: Sendable {
    public let d: D
    public init(d: D) { self.d = d }
}

public final class B: Sendable {
    public let e: E
    public let f: F
    public init(e: E, f: F) {
        self.e = e
        self.f = f
    }
}

public final class C: Sendable {
    public let g: G
    public init(g: G) { self.g = g }
}

public final class Service: Sendable {
    public let a: A
    public let b: B
    public let c: C
    public init(a: A, b: B, c: C) {
        self.a = a
        self.b = b
        self.c = c
    }
}

/// A node of the deep graph: a root with 10 children of 10 leaves each, 111 objects.
public final class Node: Sendable {
    public let children: [Node]
    public init(children: [Node]) { self.children = children }

    /// The number of nodes in this subtree.
    public var count: Int { 1 + children.reduce(0) { $0 + $1.count } }
}

public enum DeepGraph {
    public static let width = 10

    /// The name of child `index` of `parent` ("" is the root).
    public static func name(_ parent: String, _ index: Int) -> String { parent + "." + String(index) }

    public static func handWritten() -> Node {
        Node(children: (0..<width).map { _ in Node(children: (0..<width).map { _ in Node(children: []) }) })
    }
}

/// The cached singleton of the "singleton hit" case.
public final class Engine: Sendable { public init() {} }
