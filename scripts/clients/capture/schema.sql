CREATE TABLE lineitem (
 l_orderkey bigint NOT NULL, l_partkey integer NOT NULL, l_suppkey integer NOT NULL, l_linenumber integer NOT NULL,
 l_quantity numeric(15,2) NOT NULL, l_extendedprice numeric(15,2) NOT NULL, l_discount numeric(15,2) NOT NULL, l_tax numeric(15,2) NOT NULL,
 l_returnflag char(1) NOT NULL, l_linestatus char(1) NOT NULL, l_shipdate date NOT NULL, l_commitdate date NOT NULL, l_receiptdate date NOT NULL,
 l_shipinstruct char(25) NOT NULL, l_shipmode char(10) NOT NULL, l_comment varchar(44) NOT NULL);
INSERT INTO lineitem VALUES
 (1, 2, 3, 1, 17, 1000.50, 0.04, 0.02, 'N', 'O', '1996-03-13', '1996-02-12', '1996-03-22', 'DELIVER IN PERSON', 'TRUCK', 'blithely'),
 (2, 5, 6, 1, 36, 2000.00, 0.09, 0.06, 'N', 'O', '1996-04-12', '1996-02-28', '1996-04-20', 'TAKE BACK RETURN', 'AIR', 'slyly'),
 (3, 7, 8, 1, 8, 300.00, 0.10, 0.02, 'R', 'F', '1994-01-29', '1994-01-02', '1994-02-09', 'NONE', 'AIR', 'quickly');
