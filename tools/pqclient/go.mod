module github.com/gpusql/gpusql/tools/pqclient

go 1.26.8

require github.com/lib/pq v1.12.3
