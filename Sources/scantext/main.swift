import Foundation
import ScanCLI

let arguments = Array(CommandLine.arguments.dropFirst())
exit(ScanText.main(arguments))
