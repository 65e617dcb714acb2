// Boost.URL ships no library in Debian 12: its sources are compiled here, once.
#include <boost/url/src.hpp>
