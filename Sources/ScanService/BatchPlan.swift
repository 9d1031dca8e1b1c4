import Foundation
import ScanArguments
import ScanFormats

/// One input of a batch run and the name its outputs take under the
/// output folder.
package struct BatchInput: Sendable, Equatable {
  /// The file, as given or as found in a folder.
  package var path: String
  /// The outputs' path under the output folder without the format's
  /// ending (`box3/p007`): the input's place in the tree it came from.
  package var name: String

  package init(path: String, name: String) {
    self.path = path
    self.name = name
  }
}

/// What a batch run reads and where each input's outputs go (`scantext
/// batch`): files, folders (searched recursively for images and PDFs) and
/// manifests (one path per line), each input named by its place in the
/// tree it came from, so that the output folder mirrors the inputs.
package enum BatchPlan {
  /// The endings of files a folder search takes (letter case aside): the
  /// images ScanText reads and PDFs.
  package static let endings: Set<String> = [
    "png", "jpg", "jpeg", "tif", "tiff", "pnm", "pbm", "pgm", "ppm", "bmp", "webp", "gif",
    "jp2", "pdf",
  ]

  /// The inputs of `arguments` (files and folders) and of the manifest's
  /// lines, in order (a folder's files sorted by path), each file once,
  /// named as the outputs will be.
  ///
  /// Names: a folder's files by their path inside the folder
  /// (`scans/box3/p007.tif` → `box3/p007` for the folder `scans`); files
  /// given one by one (on the command line or in a manifest) by their path
  /// from the deepest folder that holds them all (`/data/a/p1.tif` and
  /// `/data/b/p1.tif` → `a/p1`, `b/p1`; a single file → its name). Two files
  /// of one folder with the same name but their ending (`p1.png`,
  /// `p1.tif`) keep their endings (`p1.png`, `p1.tif`) so each has its own
  /// outputs. Every shard of a run lists the same inputs and so gives the
  /// same names.
  ///
  /// Folders given as symbolic links, and symbolic links to folders inside
  /// a tree, are followed; a link that leads back to a folder it is inside
  /// (a loop) is not, and is named in the notes.
  /// - Parameters:
  ///   - arguments: Files and folders.
  ///   - manifest: A file with one path per line (LF or CRLF line ends, a
  ///     UTF-8 byte order mark allowed; blank lines and lines starting with
  ///     `#` skipped; relative paths from the manifest's folder), or `nil`.
  ///   - skipping: A folder whose files are never inputs (the output
  ///     folder, when it lies inside an input folder), whatever the
  ///     spelling (by device and inode).
  ///   - excluding: Files that are never inputs, by identity: the outputs
  ///     an earlier run wrote (``BatchLog/outputs(in:)``).
  /// - Returns: The inputs, and notes to show (links not followed, earlier
  ///   outputs not read).
  /// - Throws: ``ServiceError`` naming the path when an argument or the
  ///   manifest does not exist or cannot be read, and when two inputs would
  ///   still have the same name.
  package static func inputs(
    arguments: [String], manifest: String?, skipping: String? = nil,
    excluding: Set<FileIdentity> = []
  ) throws(ServiceError) -> (inputs: [BatchInput], notes: [String]) {
    var folders: [(root: String, files: [String])] = []
    var single: [String] = []
    var notes: [String] = []
    let skip = skipping.flatMap { FileIdentity($0) }
    for argument in arguments {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder) else {
        throw .inputUnreadable(path: argument, reason: "no such file or folder")
      }
      if isFolder.boolValue {
        folders.append((argument, try files(in: argument, skipping: skip, notes: &notes)))
      } else {
        single.append(argument)
      }
    }
    if let manifest { single += try manifestPaths(manifest) }
    var inputs: [BatchInput] = []
    for (root, files) in folders {
      let base = standardized(root)
      inputs += files.map { BatchInput(path: $0, name: relative(standardized($0), to: base)) }
    }
    let absolute = single.map(standardized)
    let common = commonFolder(absolute)
    inputs += zip(single, absolute).map { BatchInput(path: $0, name: relative($1, to: common)) }
    // Each file once (a file both listed and found in a folder).
    var seen = Set<String>()
    inputs = inputs.filter { seen.insert(standardized($0.path)).inserted }
    if !excluding.isEmpty {
      let before = inputs.count
      inputs = inputs.filter { input in FileIdentity(input.path).map(excluding.contains) != true }
      if inputs.count < before {
        let n = before - inputs.count
        notes.append(
          "\(n) \(n == 1 ? "file" : "files") among the inputs \(n == 1 ? "is an output" : "are outputs") of an earlier run (its report lists \(n == 1 ? "it" : "them")): not read"
        )
      }
    }
    return (try named(inputs), notes)
  }

  /// The inputs of shard `index` (from 1) of `count`: those whose name
  /// hashes to it, so `count` runs, each with its own index, cover every
  /// input exactly once, on any machine (the hash is of the name, not of
  /// where the files are mounted: FNV-1a, 64 bits).
  package static func shard(_ inputs: [BatchInput], index: Int, count: Int) -> [BatchInput] {
    inputs.filter { Int(fnv1a($0.name) % UInt64(count)) == index - 1 }
  }

  /// The 64-bit FNV-1a hash of a string's UTF-8 bytes.
  static func fnv1a(_ s: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in s.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    return hash
  }

  /// The names without the files' endings; those that would clash keep
  /// them; a clash left is an error.
  private static func named(_ inputs: [BatchInput]) throws(ServiceError) -> [BatchInput] {
    func stem(_ name: String) -> String {
      let url = URL(fileURLWithPath: name)
      guard !url.pathExtension.isEmpty else { return name }
      return String(name.dropLast(url.pathExtension.count + 1))
    }
    var count: [String: Int] = [:]
    for input in inputs { count[stem(input.name), default: 0] += 1 }
    var owner: [String: String] = [:]
    var out: [BatchInput] = []
    for var input in inputs {
      let short = stem(input.name)
      if count[short] == 1 { input.name = short }
      if let other = owner[input.name] {
        throw .other(
          "'\(other)' and '\(input.path)' would both be written as '\(input.name)': give them different names or run them apart"
        )
      }
      owner[input.name] = input.path
      out.append(input)
    }
    return out
  }

  /// The files a folder holds, recursively, whose ending is one of
  /// ``endings``, sorted by path; hidden files and folders are skipped.
  /// Symbolic links are followed, to files and to folders; a link to a
  /// folder it is inside (a loop) is not, and is named in `notes`.
  private static func files(
    in folder: String, skipping skip: FileIdentity?, notes: inout [String]
  ) throws(ServiceError) -> [String] {
    guard let root = FileIdentity(folder) else {
      throw .inputUnreadable(path: folder, reason: "the folder cannot be read")
    }
    var found: [String] = []
    let prefix = folder.hasSuffix("/") ? folder : folder + "/"
    // The folders from the root to the one read (a link back to one of
    // them is a loop).
    var ancestors: [FileIdentity: String] = [root: folder]
    func walk(_ inside: String, _ path: String) throws(ServiceError) {
      let names: [String]
      do {
        names = try FileManager.default.contentsOfDirectory(atPath: path)
      } catch {
        throw .inputUnreadable(path: path, reason: "the folder cannot be read")
      }
      for name in names.sorted() where !name.hasPrefix(".") {
        let child = (path as NSString).appendingPathComponent(name)
        let place = inside.isEmpty ? name : inside + "/" + name
        var info = stat()
        // A link to nothing: not a file to read.
        guard stat(child, &info) == 0 else { continue }
        let identity = FileIdentity(info)
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
          if identity == skip { continue }
          if let ancestor = ancestors[identity] {
            notes.append(
              "'\(prefix + place)' is a link to the folder '\(ancestor)', which holds it (a loop): not followed"
            )
            continue
          }
          ancestors[identity] = prefix + place
          try walk(place, child)
          ancestors[identity] = nil
        case S_IFREG:
          if endings.contains((name as NSString).pathExtension.lowercased()) {
            // The path as the folder was given, then its place inside.
            found.append(prefix + place)
          }
        default: continue
        }
      }
    }
    try walk("", folder)
    return found.sorted()
  }

  /// The paths a manifest lists.
  private static func manifestPaths(_ manifest: String) throws(ServiceError) -> [String] {
    let data: Data
    do {
      data = try InputFiles.read(manifest)
    } catch {
      throw ServiceError.wrap(error)
    }
    guard var text = String(validating: data, as: UTF8.self) else {
      throw .inputUnreadable(path: manifest, reason: "the manifest is not UTF-8 text")
    }
    if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
    let folder = URL(fileURLWithPath: manifest).deletingLastPathComponent().path
    var paths: [String] = []
    // Split on scalars: "\r\n" is one Character, which splitting on "\n"
    // (a Character) would never find.
    let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
    for (n, scalars) in lines.enumerated() {
      var line = String(String.UnicodeScalarView(scalars))
      if line.unicodeScalars.last == "\r" { line.unicodeScalars.removeLast() }
      guard !line.trimmingCharacters(in: .whitespaces).isEmpty, !line.hasPrefix("#") else {
        continue
      }
      let path =
        line.hasPrefix("/") || manifest == "-"
        ? line : (folder as NSString).appendingPathComponent(line)
      guard FileManager.default.fileExists(atPath: path) else {
        throw .inputUnreadable(path: manifest, reason: "line \(n + 1): '\(line)': no such file")
      }
      paths.append(path)
    }
    return paths
  }

  /// `path` absolute, without `.`, `..` or doubled slashes.
  static func standardized(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
  }

  /// `path` from inside `folder` (both standardized; `folder` holds it).
  private static func relative(_ path: String, to folder: String) -> String {
    let base = folder.hasSuffix("/") ? folder : folder + "/"
    return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
  }

  /// The deepest folder holding every path.
  private static func commonFolder(_ paths: [String]) -> String {
    let folders = paths.map { $0.split(separator: "/").dropLast() }
    guard var common = folders.first.map(Array.init) else { return "/" }
    for folder in folders.dropFirst() {
      var n = 0
      while n < common.count, n < folder.count, common[n] == folder[folder.startIndex + n] {
        n += 1
      }
      common = Array(common.prefix(n))
    }
    return "/" + common.joined(separator: "/")
  }
}

extension BatchPlan {
  /// `--shard I/N`: shard I (from 1) of N.
  /// - Throws: ``ScanArguments/ValidationError`` (a usage error) unless
  ///   1 ≤ I ≤ N.
  @Sendable package static func shard(parsing text: String) throws -> (index: Int, count: Int) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1,
      (1...n).contains(i)
    else {
      throw ValidationError("'--shard' takes I/N with 1 ≤ I ≤ N, such as 3/8 (got '\(text)')")
    }
    return (i, n)
  }

  /// `batch --format`'s formats, joined with `,`, each once, in the order
  /// given.
  /// - Throws: ``ScanArguments/ValidationError`` (a usage error) naming
  ///   a name that is not a format, and the formats.
  package static func formats(parsing list: String) throws -> [FileFormat] {
    var chosen: [FileFormat] = []
    for name in list.split(separator: ",", omittingEmptySubsequences: false) {
      guard let format = FileFormat.named(String(name)) else {
        throw ValidationError(
          "'--format': '\(name)' is not a format; the formats: \(FileFormat.all.map(\.name).joined(separator: ", "))"
        )
      }
      if !chosen.contains(format) { chosen.append(format) }
    }
    return chosen
  }
}
