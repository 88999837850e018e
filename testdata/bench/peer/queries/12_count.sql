SELECT count(*) FROM lineitem;
