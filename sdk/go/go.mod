module gatehouse.dev/sdk/go

go 1.19

// The versions Debian 12 packages (golang-google-grpc-dev, golang-google-protobuf-dev,
// golang-google-genproto-dev, golang-github-golang-protobuf-1-5-dev, and
// golang-gopkg-square-go-jose.v2-dev for the offline Verifier), which CI builds against
// in GOPATH mode; newer ones work too. docs/clients.md says how to use this module.
require (
	github.com/golang/protobuf v1.5.2
	google.golang.org/genproto v0.0.0-20200413115906-b5235f65be36
	google.golang.org/grpc v1.33.3
	google.golang.org/protobuf v1.28.1
	gopkg.in/square/go-jose.v2 v2.6.0
)
