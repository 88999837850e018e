module github.com/gpusql/gpusql/tools/tpchgen

go 1.26.8

require github.com/pingcap/go-tpc v1.0.7
